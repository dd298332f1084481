"""A credentials service on loopback, the kind an ephemeral resource exists for: a client asks
for a short-lived lease, gets a token, must renew the lease before its time-to-live runs out and
gives it back when done. Notes written with a token stand for what the token protects.

    POST   /leases        {"role": R, "ttl": S}: 201 {"id", "token", "ttl"}; 403 for role "nobody"
    PUT    /leases/ID     renews: 200 {"ttl"}; 410 when it expired or was revoked
    DELETE /leases/ID     revokes: 204
    POST   /notes         needs "Authorization: Bearer TOKEN" of a live lease; {"text": T,
                          "secret": S}: 201 {"id", "text", "etag", "secret"}
    GET    /notes/ID      (bearer) 200 {"id", "text", "etag"}, 404 when there is none
    PUT    /notes/ID      (bearer) needs "If-Match: ETAG" of the current version (412 otherwise);
                          "secret" in the body replaces the secret
    DELETE /notes/ID      (bearer) 204
"""
from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from support.loopback import ServedInThread


@dataclass
class Lease:
    role: str
    token: str
    ttl: float
    expires: float
    renewals: int = 0
    revoked: bool = False


@dataclass
class LeaseApi:
    leases: dict[str, Lease] = field(default_factory=dict)
    notes: dict[str, dict] = field(default_factory=dict)
    if_match: list[str] = field(default_factory=list)  # If-Match headers of note updates
    refused: list[str] = field(default_factory=list)  # why requests were refused
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_id: int = 1

    def tokens(self) -> list[str]:
        with self.lock:
            return [lease.token for lease in self.leases.values()]

    def live_lease(self, authorization: str | None) -> Lease | None:
        now = time.monotonic()
        for lease in self.leases.values():
            if authorization == f"Bearer {lease.token}":
                if lease.revoked or lease.expires < now:
                    self.refused.append(f"token of {lease.role} lease used after it ended")
                    return None
                return lease
        self.refused.append("unknown token")
        return None

    def handle(self, method: str, parts: list[str], body: dict, headers) -> tuple[int, dict | None]:
        with self.lock:
            if parts[:1] == ["leases"]:
                return self.lease(method, parts[1:], body)
            if parts[:1] == ["notes"]:
                if self.live_lease(headers.get("Authorization")) is None:
                    return 401, {"error": "no live lease behind this token"}
                return self.note(method, parts[1:], body, headers)
        return 404, {"error": "no such route"}

    def lease(self, method: str, rest: list[str], body: dict) -> tuple[int, dict | None]:
        if method == "POST" and not rest:
            if body.get("role") == "nobody":
                return 403, {"error": "role nobody may not log in"}
            ident = f"lease-{self.next_id}"
            self.next_id += 1
            ttl = float(body.get("ttl", 60))
            lease = Lease(body.get("role", ""), "tok-" + secrets.token_hex(12), ttl,
                          time.monotonic() + ttl)
            self.leases[ident] = lease
            return 201, {"id": ident, "token": lease.token, "ttl": ttl}
        lease = self.leases.get(rest[0]) if len(rest) == 1 else None
        if lease is None:
            return 404, {"error": "no such lease"}
        if method == "PUT":
            if lease.revoked or lease.expires < time.monotonic():
                return 410, {"error": "lease ended"}
            lease.expires = time.monotonic() + lease.ttl
            lease.renewals += 1
            return 200, {"ttl": lease.ttl}
        if method == "DELETE":
            lease.revoked = True
            return 204, None
        return 405, {"error": "method not allowed"}

    def note(self, method: str, rest: list[str], body: dict, headers) -> tuple[int, dict | None]:
        if method == "POST" and not rest:
            ident = str(self.next_id)
            self.next_id += 1
            note = {"id": ident, "text": body.get("text", ""), "etag": secrets.token_hex(6),
                     "secret": body.get("secret", "")}
            self.notes[ident] = note
            return 201, note
        note = self.notes.get(rest[0]) if len(rest) == 1 else None
        if note is None:
            return 404, {"error": "no such note"}
        if method == "GET":
            return 200, note
        if method == "PUT":
            self.if_match.append(headers.get("If-Match", ""))
            if headers.get("If-Match") != note["etag"]:
                return 412, {"error": "If-Match does not name the current version"}
            note.update(text=body.get("text", ""), etag=secrets.token_hex(6))
            if "secret" in body:
                note["secret"] = body["secret"]
            return 200, note
        if method == "DELETE":
            del self.notes[rest[0]]
            return 204, None
        return 405, {"error": "method not allowed"}


def handler_for(api: LeaseApi):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # as object_api.py's Handler says why

        def log_message(self, *args):
            pass

        def handle_any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode() if length else ""
            parts = [p for p in self.path.split("?")[0].split("/") if p]
            status, payload = api.handle(self.command, parts, json.loads(raw) if raw else {},
                                         self.headers)
            data = b"" if payload is None else json.dumps(payload).encode()
            self.send_response(status)
            if data:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = handle_any

    return Handler


class ServedLeases(ServedInThread):
    """A LeaseApi listening on 127.0.0.1 (a free port), until stop()."""

    def __init__(self):
        self.api = LeaseApi()
        super().__init__(handler_for(self.api))
