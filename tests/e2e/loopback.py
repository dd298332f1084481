"""A real server the tests start on loopback (json-server, etcd): a free port, a process whose
output goes to a log, a wait until it answers, and a stop."""
from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path
from typing import Callable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LoopbackServer:
    """Runs `command()` until stop(); `ready()` says whether it answers yet (it may raise
    OSError or ValueError while the server is coming up)."""

    def __init__(self, name: str, log: Path):
        self.name = name
        self.log = log
        self.process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        raise NotImplementedError

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(self.command(), stdout=log,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if self.ready():
                    return
            except (OSError, ValueError):  # refused, reset, timed out (URLError is one)
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"{self.name} did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
