"""JSON over HTTP as a test calls a real server's API from outside Terraform: errors are answers
too, and a status the server gives while it is busy is tried again a few times."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request


def json_request(url: str, method: str, body: object = None, *,
                 headers: dict[str, str] | None = None, timeout: float = 10,
                 busy: int | None = None, attempts: int = 8,
                 wait: float = 0.02) -> tuple[int, object]:
    """(status, the decoded JSON body, the text when it is not JSON, or None when empty) of
    `method` on `url`. A `busy` status is tried again up to `attempts` times, waiting `wait`
    seconds longer each time."""
    for attempt in range(attempts):
        status, answer = request_once(url, method, body, headers or {}, timeout)
        if busy is None or status != busy:
            break
        time.sleep(wait * (attempt + 1))
    return status, answer


def request_once(url: str, method: str, body: object, headers: dict[str, str],
                 timeout: float) -> tuple[int, object]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={**headers, "Content-Type": "application/json",
                                              "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode(errors="replace")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text
