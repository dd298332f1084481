"""Debian's etcd-server on loopback (free ports, a fresh data directory), and direct access to
its HTTP/JSON API for changing keys behind Terraform's back.

The run shares one server (conftest's `etcd` fixture, shared_servers.py); each scenario works
under a key prefix of its own (EtcdKeys.namespace), which its configurations hand to the
provider's `prefix`. A scenario that stops etcd has a server of its own (`own_etcd`)."""
from __future__ import annotations

import base64
import json
import shutil
import urllib.request
from pathlib import Path

from support.loopback import LoopbackServer, free_port


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


class EtcdKeys:
    """etcd's API at `url`, every key under `namespace` ("t7/"): get("a") reads "t7/a"."""

    def __init__(self, url: str, namespace: str = ""):
        self.url = url
        self.namespace = namespace

    def provider_prefix(self, prefix: str = "") -> str:
        """The provider's `prefix` argument for keys under `prefix` in this namespace, or ""."""
        full = self.namespace + prefix
        return f"prefix = {json.dumps(full)}" if full else ""

    def call(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def get(self, key: str) -> dict | None:
        """The key's kv (value decoded), or None."""
        kvs = self.call("/v3/kv/range", {"key": b64(self.namespace + key)}).get("kvs")
        if not kvs:
            return None
        kv = kvs[0]
        kv["value"] = base64.b64decode(kv.get("value", "")).decode()
        return kv

    def put(self, key: str, value: str) -> None:
        self.call("/v3/kv/put", {"key": b64(self.namespace + key), "value": b64(value)})

    def delete(self, key: str) -> None:
        self.call("/v3/kv/deleterange", {"key": b64(self.namespace + key)})

    def lease_ttl(self, lease: str) -> int:
        return int(self.call("/v3/lease/timetolive", {"ID": lease})["TTL"])


class Etcd(LoopbackServer, EtcdKeys):
    """An etcd-server process of its own; its keys without a namespace."""

    def __init__(self, directory: Path, *, shared: bool = False):
        binary = shutil.which("etcd")
        if binary is None:
            raise AssertionError("etcd is not installed: apt-get install etcd-server "
                                 "(tests/setup/install-deps.sh installs it)")
        LoopbackServer.__init__(self, "etcd", directory / "etcd.log")
        self.binary = binary
        self.directory = directory
        self.client_port, self.peer_port = free_port(), free_port()
        EtcdKeys.__init__(self, f"http://127.0.0.1:{self.client_port}")
        self.start(shared=shared)

    def command(self) -> list[str]:
        peer = f"http://127.0.0.1:{self.peer_port}"
        return [self.binary, "--data-dir", str(self.directory / "etcd-data"),
                "--listen-client-urls", self.url, "--advertise-client-urls", self.url,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", f"default={peer}"]

    def ready(self) -> bool:
        answer = urllib.request.urlopen(self.url + "/health", timeout=1).read()
        return json.loads(answer).get("health") == "true"


def start_shared(directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's etcd."""
    server = Etcd(directory, shared=True)
    return {"pid": server.process.pid, "url": server.url}
