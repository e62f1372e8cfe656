"""Day 08: running one turn of the lab's agent against the fake model server, and reading
what reached the model, what the agent printed and what it logged.

Every check of the day is black-box: the agent runs as `python -m mca PROMPT` in a fresh
workspace the check filled with generated files, talking to the grader's fake model
server (grader/checkkit/fakeserver.py), which records every request. A page for `@url`
comes from a second loopback server, `PageServer` (pytest-httpserver), which records
every GET; nothing reaches the network. The turn itself (run_turn, Turn, the request
readers, the estimate) is the check kit's, grader/checkkit/turns.py, shared with day 9.
"""

from __future__ import annotations

import threading

from pytest_httpserver import HTTPServer
from werkzeug.wrappers import Response

from grader.checkkit.turns import (WIDE_FROM, Turn, estimate, everything, expect_sent, marker, model_server,  # noqa: F401
                                   run_turn, text_of, token, user_content, write_files)


class PageServer:
    """Pages for `@url` on 127.0.0.1 (pytest-httpserver, one thread per connection); `log`
    keeps every request. A page registered with `hang` never answers until the server closes."""

    def __init__(self) -> None:
        self.http = HTTPServer(host="127.0.0.1", threaded=True)
        self.released = threading.Event()

    def __enter__(self) -> PageServer:
        self.http.start()
        return self

    def __exit__(self, *exc) -> None:
        self.released.set()
        self.http.clear()
        if self.http.is_running():
            self.http.stop()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.http.port}{path}"

    def page(self, path: str, body: str, content_type: str = "text/html; charset=utf-8", status: int = 200) -> str:
        self.http.expect_request(path).respond_with_response(
            Response(body.encode("utf-8"), status=status, content_type=content_type))
        return self.url(path)

    def hang(self, path: str, seconds: float) -> str:
        def late(request):
            self.released.wait(seconds)
            return Response("late", status=200, content_type="text/plain")
        self.http.expect_request(path).respond_with_handler(late)
        return self.url(path)

    def gets(self, path: str) -> list[str]:
        """The methods of the requests that reached `path`, in order."""
        return [request.method for request, _ in self.http.log if request.path == path]
