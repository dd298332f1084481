"""json-server (npm, pinned by install-json-server.sh) run on loopback for one scenario: a real
REST API over a JSON file, for the restapi provider's tests."""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

from loopback import LoopbackServer, free_port


class JsonServer(LoopbackServer):
    def __init__(self, binary: Path, directory: Path, collections: dict[str, list], *,
                 logged: bool = False):
        """`logged`: json-server writes a line per request, which requests() reads."""
        super().__init__("json-server", directory / "json-server.log")
        self.db = directory / "db.json"
        self.db.write_text(json.dumps(collections))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.binary = binary
        self.logged = logged
        self.start()

    def command(self) -> list[str]:
        quiet = [] if self.logged else ["--quiet"]
        return [str(self.binary), "--host", "127.0.0.1", "--port", str(self.port), *quiet,
                str(self.db)]

    def requests(self) -> list[str]:
        """"GET /posts?_page=2" for each request answered so far (a logged server's only)."""
        text = re.sub(r"\x1b\[[0-9;]*m", "", self.log.read_text(errors="replace"))
        return re.findall(r"^\s*((?:GET|POST|PUT|PATCH|DELETE) \S+) \d{3} ", text, re.M)

    def ready(self) -> bool:
        urllib.request.urlopen(self.url + "/db", timeout=1).read()
        return True

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
