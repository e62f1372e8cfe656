"""A fake OpenAI-compatible server on 127.0.0.1: prepared answers, recorded requests."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeServer:
    """Answers each POST with the next prepared ``(status, body[, headers])`` and keeps the requests.

    The Content-Type is text/event-stream unless the headers say otherwise.
    """

    def __init__(self, responses) -> None:
        self.responses = list(responses)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers["Content-Length"])
                server.requests.append({"path": self.path, "auth": self.headers["Authorization"],
                                        "content_type": self.headers["Content-Type"],
                                        "body": json.loads(self.rfile.read(length))})
                status, body, *rest = server.responses.pop(0)
                headers = {"Content-Type": "text/event-stream", **(rest[0] if rest else {})}
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def sse(chunks, done: bool = True) -> bytes:
    """Chunks as server-sent events, ending with ``data: [DONE]`` unless told not to."""
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    return body + (b"data: [DONE]\n\n" if done else b"")


def completion(content) -> bytes:
    """A non-streamed chat completion whose message content is ``content``."""
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}).encode()


def error_body(message: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()


def closed_port_url() -> str:
    """The URL of a server that was just closed: nothing listens there."""
    server = FakeServer([])
    url = server.url
    server.close()
    return url
