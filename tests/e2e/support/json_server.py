"""json-server (npm, pinned by install-json-server.sh) on loopback: a real REST API over a JSON
file, for the restapi provider's tests.

The run shares one server (conftest's `json_server` fixture, shared_servers.py). json-server
serves only the collections its file names when it starts, so the shared one starts with
NAMESPACES numbered copies of each collection ("t7--posts") and a route that serves
"/t7/posts/..." from "t7--posts": a scenario's namespace is "/t7" at the end of the provider's
`uri`, and its paths ("/posts") stay what an author writes. A scenario that stops the server
has one of its own (`own_json_server`)."""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

from support.loopback import LoopbackServer, free_port

COLLECTIONS = ("posts", "tfstates", "tflocks")
NAMESPACES = 256
# "/t7/posts", "/t7/posts/3" and "/t7/posts/3/publish" to the namespace's own collection. The
# rewritten path is what json-server logs and what its Link headers name (also served).
ROUTES = {
    "/:ns/:collection": "/:ns--:collection",
    "/:ns/:collection/:id": "/:ns--:collection/:id",
    "/:ns/:collection/:id/:action": "/:ns--:collection/:id/:action",
}


class JsonServer(LoopbackServer):
    """A json-server process, every request logged; collections t1--posts ... tN--posts."""

    def __init__(self, binary: Path, directory: Path, *, namespaces: int = NAMESPACES,
                 shared: bool = False):
        super().__init__("json-server", directory / "json-server.log")
        self.db = directory / "db.json"
        self.db.write_text(json.dumps({f"t{n}--{c}": [] for n in range(1, namespaces + 1)
                                       for c in COLLECTIONS}))
        self.routes = directory / "routes.json"
        self.routes.write_text(json.dumps(ROUTES))
        self.namespaces = namespaces
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.binary = binary
        self.start(shared=shared)

    def command(self) -> list[str]:
        return [str(self.binary), "--host", "127.0.0.1", "--port", str(self.port),
                "--routes", str(self.routes), str(self.db)]

    def ready(self) -> bool:
        urllib.request.urlopen(self.url + "/db", timeout=1).read()
        return True


def start_shared(binary: Path, directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's json-server."""
    server = JsonServer(binary, directory, shared=True)
    return {"pid": server.process.pid, "url": server.url, "log": str(server.log),
            "namespaces": server.namespaces}


class JsonSpace:
    """Namespace `number` of the json-server at `server_url`: `url` is the provider's `uri`,
    and request() changes or reads the API directly, as someone outside Terraform would."""

    def __init__(self, server_url: str, log: Path, number: int, namespaces: int,
                 server: JsonServer | None = None):
        self.server = server  # the process, when the scenario has one of its own
        if number > namespaces:
            raise AssertionError(f"json-server was started with {namespaces} namespaces and "
                                 f"scenario number {number} needs one more: raise NAMESPACES "
                                 "in tests/e2e/support/json_server.py")
        self.server_url = server_url
        self.log = log
        self.name = f"t{number}"
        self.url = f"{server_url}/{self.name}"

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            return e.code, None

    def requests(self) -> list[str]:
        """"GET /posts?_page=2" for each request of this namespace answered so far."""
        text = re.sub(r"\x1b\[[0-9;]*m", "", self.log.read_text(errors="replace"))
        pattern = rf"^\s*((?:GET|POST|PUT|PATCH|DELETE) )/{self.name}--(\S+) \d{{3}} "
        return [f"{method}/{rest}" for method, rest in re.findall(pattern, text, re.M)]
