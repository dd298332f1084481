"""Debian's PostgreSQL 15 on loopback: a cluster made with initdb in a fresh directory, its
superuser `postgres` authenticated by SCRAM-SHA-256, TLS on with a certificate of a test CA for
"localhost", run as the `postgres` system user (PostgreSQL refuses root), and psql for
changing things behind Terraform's back.

The run shares one server (conftest's `postgresql` fixture, shared_servers.py); each scenario
names its roles and databases with a prefix of its own (PostgresAccess.prefix)."""
from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from support.loopback import LoopbackServer, free_port

BIN = Path("/usr/lib/postgresql/15/bin")
SUPERUSER_PASSWORD = "pg-superuser-secret-5150"


def as_postgres() -> list[str]:
    """The prefix that runs a command as the postgres system user."""
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise AssertionError("no postgres user: apt-get install postgresql-15 "
                             "(tests/setup/install-deps.sh installs it)") from None
    return ["runuser", "-u", "postgres", "--"]


class PostgresAccess:
    """psql as the superuser against the server at `port`."""

    def __init__(self, port: int, ca: str, prefix: str = ""):
        self.port = port
        self.ca = ca
        self.prefix = prefix

    def psql(self, sql: str, database: str = "postgres") -> str:
        env = dict(os.environ, PGPASSWORD=SUPERUSER_PASSWORD)
        result = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                                 "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                                capture_output=True, text=True, env=env, timeout=30)
        if result.returncode != 0:
            raise AssertionError(f"psql {sql!r}: {result.stderr}")
        return result.stdout.strip()


class Postgres(LoopbackServer, PostgresAccess):
    def __init__(self, directory: Path, *, shared: bool = False):
        if not (BIN / "postgres").exists():
            raise AssertionError(f"{BIN / 'postgres'} is missing: apt-get install postgresql-15 "
                                 "(tests/setup/install-deps.sh installs it)")
        LoopbackServer.__init__(self, "postgresql", directory / "postgresql.log")
        # The postgres user cannot enter pytest's directories (mode 0700): a place of its own.
        self.home = Path(tempfile.mkdtemp(prefix="luaform-pg-"))
        shutil.chown(self.home, "postgres", "postgres")
        self.home.chmod(0o755)
        PostgresAccess.__init__(self, free_port(), str(self.home / "ca.pem"))
        self.make_cluster()
        self.start(shared=shared)

    def make_cluster(self) -> None:
        password_file = self.home / "password"
        password_file.write_text(SUPERUSER_PASSWORD + "\n")
        shutil.chown(password_file, "postgres", "postgres")
        subprocess.run([*as_postgres(), str(BIN / "initdb"), "-D", str(self.home / "data"),
                        "-U", "postgres", "--auth=scram-sha-256", f"--pwfile={password_file}",
                        "--encoding=UTF8", "--locale=C.UTF-8"],
                       check=True, capture_output=True, timeout=120)
        # A CA and a server certificate it signed, for "localhost" only.
        def run(*args: str) -> None:
            subprocess.run(args, check=True, capture_output=True, cwd=self.home)

        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=luaform test CA", "-keyout", "ca-key.pem", "-out", "ca.pem")
        run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "server-key.pem", "-out", "server.csr")
        (self.home / "san.ext").write_text("subjectAltName=DNS:localhost\n")
        run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey",
            "ca-key.pem", "-CAcreateserial", "-days", "1", "-extfile", "san.ext",
            "-out", "server.pem")
        for name in ("server.pem", "server-key.pem", "ca.pem"):
            shutil.chown(self.home / name, "postgres", "postgres")
        (self.home / "server-key.pem").chmod(0o600)

    def command(self) -> list[str]:
        return [*as_postgres(), str(BIN / "postgres"), "-D", str(self.home / "data"),
                "-p", str(self.port), "-k", str(self.home), "-c", "listen_addresses=127.0.0.1",
                "-c", "ssl=on", "-c", f"ssl_cert_file={self.home / 'server.pem'}",
                "-c", f"ssl_key_file={self.home / 'server-key.pem'}", "-c", "fsync=off"]

    def ready(self) -> bool:
        return subprocess.run([str(BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                              capture_output=True).returncode == 0

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.home, ignore_errors=True)


def start_shared(directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's PostgreSQL."""
    server = Postgres(directory, shared=True)
    return {"pid": server.process.pid, "port": server.port, "ca": server.ca,
            "home": str(server.home)}
