"""The socket side of the fake model server: a threaded Werkzeug server that stops on time.

pytest-httpserver starts Werkzeug's development server in a thread; this module
adjusts three things the checks depend on. Every connection gets its own thread
and an I/O timeout, so a silent or stuck child cannot block the next request.
The protocol is pinned to HTTP/1.1 with TCP_NODELAY, so each write of a stream
leaves as its own chunk at once. And every open connection is tracked, so that
stopping the server can shut their sockets (a blocked read or write returns at
once) and join their threads for a bounded time: a child still connected never
hangs the grader.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Callable

from pytest_httpserver import HTTPServer
from werkzeug.serving import WSGIRequestHandler


def shut(sock: socket.socket | None) -> None:
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already gone


class Connections:
    """The open client sockets and their threads, so shutdown can cut them off and join them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[socket.socket, threading.Thread] = {}
        self._closed = False

    def add(self, sock: socket.socket) -> None:
        with self._lock:
            self._open[sock] = threading.current_thread()
            if self._closed:  # accepted while shutting down
                shut(sock)

    def discard(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.pop(sock, None)

    def shut_all(self) -> None:
        with self._lock:
            self._closed = True
            for sock in self._open:
                shut(sock)

    def join(self, grace: float) -> int:
        """Join the connection threads for at most `grace` seconds; how many are left."""
        self.shut_all()  # any accepted since the last call
        deadline = time.monotonic() + grace
        with self._lock:
            threads = list(self._open.values())
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return sum(thread.is_alive() for thread in threads)


class _Handler(WSGIRequestHandler):
    """Werkzeug's request handler with the settings the checks rely on, whatever else runs in the process.

    HTTP/1.1 is pinned here: Werkzeug sets it on its shared WSGIRequestHandler
    class when a threaded server is made, so without the pin the protocol of a
    server would depend on which servers the process made before it.
    """

    protocol_version = "HTTP/1.1"  # a streamed body goes out chunked, as real providers send it
    disable_nagle_algorithm = True  # TCP_NODELAY: each write leaves at once, no coalescing delay
    timeout: float = 10.0
    connections: Connections

    def setup(self) -> None:
        super().setup()
        self.connections.add(self.connection)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.connections.discard(self.connection)

    def log(self, type: str, message: str, *args) -> None:
        """No access log on the grader's terminal."""


class ThreadedServer(HTTPServer):
    """pytest-httpserver's server, threaded, with our handler class and a closed socket on stop.

    Threaded on purpose: one thread per connection, so a child stuck on a gated
    stream, or one that connected and went silent, cannot stop the next request
    (a retry, the next turn) from being answered; and HTTP/1.1 chunked bodies, so
    a stream can end cleanly without `[DONE]` (a clean cut a client must notice)
    or be dropped mid-chunk (`Drop`: urllib raises IncompleteRead).
    """

    def __init__(self, connections: Connections, io_timeout: float, problem: Callable[[str], None]) -> None:
        super().__init__(host="127.0.0.1", port=0, threaded=True)
        attributes = {"timeout": io_timeout, "connections": connections}
        self._handler = type("_FakeModelHandler", (_Handler,), attributes)
        self._report = problem

    def start(self) -> None:
        pinned = "protocol_version" in vars(WSGIRequestHandler)
        super().start()
        if not pinned and "protocol_version" in vars(WSGIRequestHandler):
            del WSGIRequestHandler.protocol_version  # undo Werkzeug's process-wide switch (see _Handler)

    def thread_target(self) -> None:
        """Runs before the first accept: install the handler, route Werkzeug's error log to problems."""
        assert self.server is not None
        self.server.RequestHandlerClass = self._handler
        self.server.log = lambda type, message, *args: self._report(f"werkzeug {type}: {message.strip()}")
        self.server.serve_forever(poll_interval=0.1)

    def stop(self) -> None:
        server = self.server
        super().stop()
        if server is not None:
            server.server_close()  # pytest-httpserver leaves the listening socket to the GC
