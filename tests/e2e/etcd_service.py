"""Debian's etcd-server run on loopback for one scenario (free ports, a fresh data directory),
with direct access to its HTTP/JSON API for changing keys behind Terraform's back."""
from __future__ import annotations

import base64
import json
import shutil
import urllib.request
from pathlib import Path

from loopback import LoopbackServer, free_port


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


class Etcd(LoopbackServer):
    def __init__(self, directory: Path):
        binary = shutil.which("etcd")
        if binary is None:
            raise AssertionError("etcd is not installed: apt-get install etcd-server "
                                 "(tests/setup/install-deps.sh installs it)")
        super().__init__("etcd", directory / "etcd.log")
        self.binary = binary
        self.directory = directory
        self.client_port, self.peer_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.client_port}"
        self.start()

    def command(self) -> list[str]:
        peer = f"http://127.0.0.1:{self.peer_port}"
        return [self.binary, "--data-dir", str(self.directory / "etcd-data"),
                "--listen-client-urls", self.url, "--advertise-client-urls", self.url,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", f"default={peer}"]

    def ready(self) -> bool:
        answer = urllib.request.urlopen(self.url + "/health", timeout=1).read()
        return json.loads(answer).get("health") == "true"

    def call(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def get(self, key: str) -> dict | None:
        """The key's kv (value decoded), or None."""
        kvs = self.call("/v3/kv/range", {"key": b64(key)}).get("kvs")
        if not kvs:
            return None
        kv = kvs[0]
        kv["value"] = base64.b64decode(kv.get("value", "")).decode()
        return kv

    def put(self, key: str, value: str) -> None:
        self.call("/v3/kv/put", {"key": b64(key), "value": b64(value)})

    def delete(self, key: str) -> None:
        self.call("/v3/kv/deleterange", {"key": b64(key)})

    def lease_ttl(self, lease: str) -> int:
        return int(self.call("/v3/lease/timetolive", {"ID": lease})["TTL"])
