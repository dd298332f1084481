"""A small JSON object API served by Python's standard http.server on loopback, for testing the
host's HTTP client (tf.http) through a provider: real sockets, real HTTP/1.1, keep-alive, and
faults a test arms on purpose (error statuses with or without Retry-After, slow answers).

    POST   /objects            create from the JSON body; 201 with the object (id, revision added)
    GET    /objects            the objects sorted by id; ?per_page=N&page=P pages them with a
                               Link: <...>; rel="next" header
    GET    /objects/ID         200 with the object, 404 when there is none
    PUT    /objects/ID         replace it (revision goes up); 404 when there is none
    PATCH  /objects/ID         change the fields the body names, keep the others (revision up)
    DELETE /objects/ID         204; 404 when there is none

With `token` set every request needs `Authorization: Bearer TOKEN` (401 otherwise, quoting the
Authorization header it got, as careless APIs do). With
`on_create` set, a new object also gets the fields it returns (what a real API assigns: an
address, a creation time, defaults for fields the body leaves out or empty). With `normalise`
set, every object it stores (created, replaced or changed) is first what that returns: the
API's own spelling of what it was sent (names lower-cased, say).
"""
from __future__ import annotations

import functools
import json
import ssl
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Callable
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from support.loopback import ServedInThread


@dataclass
class Fault:
    method: str
    status: int
    count: int
    retry_after: str | None = None
    body: str | bytes = '{"error": "injected"}'  # bytes: sent as they are (Latin-1, say)
    delay: float = 0.0
    inflates_to: int = 0  # > 0: a gzip body of that many zero bytes instead of `body`


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: str
    at: float
    connection: int  # which TCP connection carried it (its client port)
    status: int = 0


@dataclass
class ObjectApi:
    token: str | None = None
    objects: dict[str, dict] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    next_id: int = 1
    lock: threading.Lock = field(default_factory=threading.Lock)
    on_create: Callable[[dict], dict] | None = None
    normalise: Callable[[dict], dict] | None = None

    def stored(self, obj: dict) -> dict:
        """`obj` as the API stores it."""
        return obj if self.normalise is None else self.normalise(obj)

    def fail(self, method: str, status: int, count: int = 1, *, retry_after: str | None = None,
             body: str | bytes = '{"error": "injected"}', delay: float = 0.0,
             inflates_to: int = 0) -> None:
        """The next `count` requests with `method` are answered `status` (after `delay`); with
        `inflates_to`, by a small gzip body that inflates to that many bytes."""
        with self.lock:
            self.faults.append(Fault(method, status, count, retry_after, body, delay,
                                     inflates_to))

    def stall(self, method: str, seconds: float) -> None:
        """The next request with `method` is answered normally, but only after `seconds`."""
        with self.lock:
            self.faults.append(Fault(method, 0, 1, delay=seconds))

    def seen(self, method: str | None = None) -> list[Seen]:
        with self.lock:
            return [r for r in self.requests if method is None or r.method == method]

    def take_fault(self, method: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.method == method and fault.count > 0:
                    fault.count -= 1
                    return fault
        return None


@functools.lru_cache(maxsize=4)
def gzip_of_zeros(size: int) -> bytes:
    """A gzip stream of `size` zero bytes, compressed a megabyte at a time (about 1000:1)."""
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
    chunk = bytes(1 << 20)
    parts = [compressor.compress(chunk) for _ in range(size >> 20)]
    parts.append(compressor.compress(bytes(size & ((1 << 20) - 1))))
    parts.append(compressor.flush())
    return b"".join(parts)


def handler_for(api: ObjectApi):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, so connection reuse can be observed
        # The headers and the body go out in two writes: with Nagle's algorithm the body waited
        # for the client's delayed ACK of the headers, 40 ms on every answer of a kept-alive
        # connection (scenario 7 of tests/bench measured it).
        disable_nagle_algorithm = True

        def log_message(self, *args):  # quiet: pytest shows failures, not access logs
            pass

        def answer(self, status: int, payload=None, headers: dict[str, str] | None = None,
                   raw: str | bytes | None = None) -> None:
            body = raw if raw is not None else ("" if payload is None else json.dumps(payload))
            data = body if isinstance(body, bytes) else body.encode()
            self.send_response(status)
            if data:
                self.send_header("Content-Type", "application/json")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            with api.lock:
                api.requests[-1].status = status

        def answer_compressed(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            with api.lock:
                api.requests[-1].status = status

        def handle_any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            with api.lock:
                api.requests.append(Seen(self.command, self.path, dict(self.headers), body,
                                         time.monotonic(), self.client_address[1]))
            fault = api.take_fault(self.command)
            if fault is not None:
                time.sleep(fault.delay)
                if fault.inflates_to:
                    self.answer_compressed(fault.status, gzip_of_zeros(fault.inflates_to))
                    return
                if fault.status:
                    extra = {"Retry-After": fault.retry_after} if fault.retry_after else {}
                    self.answer(fault.status, headers=extra, raw=fault.body)
                    return
            if api.token is not None and \
                    self.headers.get("Authorization") != f"Bearer {api.token}":
                self.answer(401, {"error": "missing or wrong bearer token",
                                  "authorization": self.headers.get("Authorization")})
                return
            url = urlsplit(self.path)
            parts = [p for p in url.path.split("/") if p]
            if parts[:1] != ["objects"] or len(parts) > 2:
                self.answer(404, {"error": f"no route {url.path}"})
                return
            if len(parts) == 1:
                self.collection(url.query, body)
            else:
                self.member(parts[1], body)

        def collection(self, query: str, body: str) -> None:
            if self.command == "POST":
                with api.lock:
                    obj = dict(json.loads(body), id=str(api.next_id), revision=1)
                    if api.on_create is not None:
                        obj.update(api.on_create(obj))
                    api.next_id += 1
                    obj = api.stored(obj)
                    api.objects[obj["id"]] = obj
                self.answer(201, obj)
            elif self.command == "GET":
                with api.lock:
                    listing = sorted(api.objects.values(), key=lambda o: int(o["id"]))
                params = parse_qs(query)
                if "per_page" not in params:
                    self.answer(200, listing)
                    return
                per_page = int(params["per_page"][0])
                page = int(params.get("page", ["1"])[0])
                chunk = listing[(page - 1) * per_page:page * per_page]
                headers = {}
                if page * per_page < len(listing):
                    host = self.headers.get("Host")
                    headers["Link"] = (f'<http://{host}/objects?per_page={per_page}'
                                       f'&page={page + 1}>; rel="next"')
                self.answer(200, chunk, headers)
            else:
                self.answer(405, {"error": "method not allowed"})

        def member(self, ident: str, body: str) -> None:
            with api.lock:
                obj = api.objects.get(ident)
                if obj is None:
                    status, payload = 404, {"error": f"object {ident} not found"}
                elif self.command == "GET":
                    status, payload = 200, obj
                elif self.command == "PUT":
                    obj = api.stored(dict(json.loads(body), id=ident,
                                          revision=obj["revision"] + 1))
                    api.objects[ident] = obj
                    status, payload = 200, obj
                elif self.command == "PATCH":
                    obj = api.stored(dict(obj, **json.loads(body), revision=obj["revision"] + 1))
                    api.objects[ident] = obj
                    status, payload = 200, obj
                elif self.command == "DELETE":
                    del api.objects[ident]
                    status, payload = 204, None
                else:
                    status, payload = 405, {"error": "method not allowed"}
            self.answer(status, payload)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any

    return Handler


class Served(ServedInThread):
    """An ObjectApi listening on 127.0.0.1 (a free port), until stop()."""

    def __init__(self, api: ObjectApi, tls: ssl.SSLContext | None = None):
        self.api = api
        super().__init__(handler_for(api), tls)
