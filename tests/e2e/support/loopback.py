"""Servers the tests start on loopback: a real one in a process (json-server, etcd) with a free
port, a log, a wait until it answers and a stop; and the scenarios' own HTTP servers, served
from a thread of the test process."""
from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Callable


def self_signed(directory: Path, name: str, subject: str, alt_name: str) -> tuple[Path, Path]:
    """A key and a self-signed certificate (its own CA) in PEM files."""
    key, cert = directory / f"{name}-key.pem", directory / f"{name}-cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", subject, "-addext", f"subjectAltName={alt_name}",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return key, cert


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

    def start(self, *, shared: bool = False) -> None:
        """`shared`: the server is one of the run's (shared_servers.py), in a process group of
        its own that outlives the worker that started it."""
        # A server lives for many commands: Go's collector at its defaults (conftest turns it
        # off for the short-lived CLIs).
        env = {k: v for k, v in os.environ.items() if k not in ("GOGC", "GOMEMLIMIT")}
        with self.log.open("a") as log:
            self.process = subprocess.Popen(self.command(), stdout=log,
                                            stderr=subprocess.STDOUT, env=env,
                                            start_new_session=shared)
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
        if self.process.poll() is None:
            # It never answered: not left running behind the scenario that gave up on it (a
            # shared server's whole process group, which outlives the worker).
            if shared:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
            self.process.wait(timeout=20)
        raise AssertionError(f"{self.name} did not start in 30 s:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


class QuietServer(ThreadingHTTPServer):
    """Clients that go away mid-answer (a request a timeout ended, a refused certificate) are
    part of the scenarios, not server errors worth a traceback."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, ssl.SSLError)):
            super().handle_error(request, client_address)


class ServedInThread:
    """An http.server handler class answering on 127.0.0.1 (a free port) from a background
    thread, over TLS when given a server context, until stop()."""

    def __init__(self, handler, tls: ssl.SSLContext | None = None):
        self.server = QuietServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        scheme = "http"
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
