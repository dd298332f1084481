"""An HTTP forward proxy on loopback for the proxy scenarios: it takes requests in the
absolute-URI form clients send to a proxy, passes them on to the server they name, and keeps
the list of what went through it."""
import http.client
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from support.loopback import ServedInThread

# Headers that belong to one hop (RFC 9110 section 7.6.1), not passed on either way.
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authorization", "proxy-connection", "te",
              "trailer", "transfer-encoding", "upgrade"}


class ForwardProxy(ServedInThread):
    def __init__(self):
        self.forwarded: list[tuple[str, str]] = []  # (method, absolute URL)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # as object_api.py's Handler says why

            def log_message(self, *args):  # quiet: pytest shows failures, not traffic
                pass

            def relay(self):
                url = urlsplit(self.path)
                if url.scheme != "http" or not url.hostname:
                    self.send_error(400, "a proxy request names an absolute http URL")
                    return
                proxy.forwarded.append((self.command, self.path))
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in HOP_BY_HOP}
                upstream = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=30)
                target = url.path + (f"?{url.query}" if url.query else "")
                upstream.request(self.command, target or "/", body=body, headers=headers)
                answer = upstream.getresponse()
                payload = answer.read()
                upstream.close()
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = relay

        super().__init__(Handler)
