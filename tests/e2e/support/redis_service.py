"""Debian's redis-server on loopback (a free port, no persistence), and redis-cli for changing
its users behind Terraform's back.

The run shares one server (conftest's `redis` fixture, shared_servers.py); each scenario names
its users with a prefix of its own (RedisUsers.prefix)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from support.loopback import LoopbackServer, free_port


def binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise AssertionError(f"{name} is not installed: apt-get install redis-server "
                             "(tests/setup/install-deps.sh installs it)")
    return found


class RedisUsers:
    """redis-cli against the server at `port`, for users named with `prefix` ("t7-")."""

    def __init__(self, port: int, prefix: str = ""):
        self.port = port
        self.prefix = prefix

    def cli(self, *args: str) -> str:
        result = subprocess.run([binary("redis-cli"), "-p", str(self.port), "--no-raw", *args],
                                capture_output=True, text=True, timeout=20, check=True)
        return result.stdout

    def user(self, name: str) -> str | None:
        """ACL LIST's line for the user, or None."""
        for line in self.cli("ACL", "LIST").splitlines():
            line = line.split(") ", 1)[-1].strip('"')
            if line.startswith(f"user {name} "):
                return line
        return None


class Redis(LoopbackServer, RedisUsers):
    def __init__(self, directory: Path, *, shared: bool = False):
        LoopbackServer.__init__(self, "redis-server", directory / "redis.log")
        self.directory = directory
        RedisUsers.__init__(self, free_port())
        self.start(shared=shared)

    def command(self) -> list[str]:
        return [binary("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.directory)]

    def ready(self) -> bool:
        try:
            return self.cli("PING").strip() == "PONG"
        except subprocess.CalledProcessError:  # not listening yet
            return False


def start_shared(directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's redis-server."""
    server = Redis(directory, shared=True)
    return {"pid": server.process.pid, "port": server.port}
