"""json-server (npm, pinned by install-json-server.sh) run on loopback for one scenario: a real
REST API over a JSON file, for the restapi provider's tests."""
from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JsonServer:
    def __init__(self, binary: Path, directory: Path, collections: dict[str, list]):
        self.db = directory / "db.json"
        self.db.write_text(json.dumps(collections))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = directory / "json-server.log"
        self.process: subprocess.Popen | None = None
        self.binary = binary
        self.start()

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [str(self.binary), "--host", "127.0.0.1", "--port", str(self.port), "--quiet",
                 str(self.db)], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/db", timeout=1).read()
                return
            except OSError:  # refused, reset, timed out (URLError is one)
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        raise AssertionError(f"json-server did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        """Changes or reads the API directly, as someone outside Terraform would."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            return e.code, None
