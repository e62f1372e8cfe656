"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for checks about the wire.

The lab's agent runs as a child process and talks to it with `urllib`, exactly as
it would to a provider: a real socket, real HTTP, real SSE bytes. So the check
proves the student's client, not a patched one. The server records every request
(to prove what the agent sent: the history, the headers, the arrival times of
retries) and answers from a script or from a *model*, a function of the request.

    with FakeModelServer([reply_status(503), reply_json("hi")]) as server:
        child = run_agent(..., env=server.env())
        first, second = server.wait_for_requests(2, timeout=5)

It is pytest-httpserver's HTTPServer (Werkzeug) with one handler for every path:
POST /v1/chat/completions gets the scripted answer, any other path a 404 like a
real provider's, so a doubled `/v1/v1` shows up as the error a student meets in
real life.
"""

from __future__ import annotations

import collections
import json
import re
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from werkzeug.wrappers import Request, Response

from . import provider
from .chain import forget_refusals, note_refusal, refusal_note, refused, valid_chain
from .messages import kit_say
from .replies import Reply, Spec, StreamReply, error_body, http_date, reply_json, reply_status, reply_stream
from .serving import Connections, ThreadedServer, shut
from .sse import Drop, Gate, Pause, SSEStream

__all__ = ["FakeModelServer", "Gate", "Headers", "RecordedRequest", "Reply", "SSEStream", "StreamReply",
           "error_body", "forget_refusals", "http_date", "refusal_note", "reply_json", "reply_status",
           "reply_stream", "valid_chain"]

CHAT_PATH = "/v1/chat/completions"
SHUTDOWN_GRACE = 2.0  # seconds to wait for connection threads once their sockets are shut


class Headers(dict):
    """Request headers with lower-case names; lookups ignore case (`h["Authorization"]`)."""

    def __getitem__(self, key: str) -> str:
        return super().__getitem__(key.lower())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(key.lower())

    def get(self, key: str, default=None):
        return super().get(key.lower(), default)


@dataclass(frozen=True)
class RecordedRequest:
    """One request as it reached the server; `arrived` is `time.monotonic()` when it was read."""

    method: str
    path: str
    headers: Headers
    body: bytes
    json: object  # the parsed body, or None when it is not JSON
    arrived: float
    query: str = ""

    @property
    def messages(self) -> list:
        """The body's `messages` list ([] when there is none)."""
        messages = self.json.get("messages") if isinstance(self.json, dict) else None
        return messages if isinstance(messages, list) else []

    @property
    def model(self) -> str | None:
        return self.json.get("model") if isinstance(self.json, dict) else None

    @property
    def stream(self) -> bool:
        """Whether the request asked for a streamed reply (`"stream": true`)."""
        return isinstance(self.json, dict) and self.json.get("stream") is True

    @property
    def asks_usage(self) -> bool:
        """Whether a streamed reply may end with a usage chunk (`stream_options.include_usage` true)."""
        options = self.json.get("stream_options") if isinstance(self.json, dict) else None
        return self.stream and isinstance(options, dict) and options.get("include_usage") is True

    @property
    def bearer(self) -> str | None:
        """The token of an `Authorization: Bearer <token>` header, else None."""
        value = self.headers.get("authorization", "")
        return value[7:] if value.startswith("Bearer ") else None


Model = Callable[[RecordedRequest], Spec]


class FakeModelServer:
    """A chat-completions endpoint that answers from `script` in order, then from `model`.

    With neither left, a request gets a 500 saying the script ran out (never a
    hang). Like a real provider it refuses, with its status and error object, what
    a provider refuses (`chain.refused`: no API key, an unknown parameter,
    `stream_options` without `stream`, `"tools": []`, no messages, an unknown role,
    `"tool_calls": []`, a tool message answering no call, and with `enforce_chain`,
    the default, any chain `valid_chain` rejects); each refusal is also kept for the
    check's failure message (`refusal_notes`). Only a check about what the agent
    does with such a request itself says `lenient=True` (nothing of that refused)
    or `enforce_chain=False` (the rest of the chain rules off). `api_key` refuses
    any other bearer token with a 401. `io_timeout` bounds every socket read and
    write, so a silent client cannot hold a thread.

    A streamed reply goes out as a provider sends it for this request: its usage
    chunk only when the request asked with `stream_options: {"include_usage": true}`.

    Each connection has its own thread: a model may be called concurrently, and
    a stream's gate works once (a stream replayed twice finds it open).
    """

    def __init__(self, script: Iterable[Spec] = (), *, model: Model | None = None,
                 enforce_chain: bool = True, lenient: bool = False, api_key: str | None = None,
                 io_timeout: float = 10.0) -> None:
        self._script = collections.deque(script)
        self._model = model
        self.enforce_chain = enforce_chain
        self.lenient = lenient
        self.api_key = api_key
        self._requests: list[RecordedRequest] = []
        self._problems: list[str] = []
        self._changed = threading.Condition()
        self._closing = threading.Event()
        self._connections = Connections()
        self._http = ThreadedServer(self._connections, io_timeout, self._problem)
        self._http.expect_request(re.compile(".*")).respond_with_handler(self._answer)

    # -- lifetime ----------------------------------------------------------------

    def start(self) -> FakeModelServer:
        self._http.start()
        return self

    def close(self) -> None:
        """Stop within a few seconds, even with clients still connected or streams gated.

        Gates and pauses give up, every open connection is shut (a blocked read or
        write returns at once), the accept loop stops, handler threads are joined
        for at most SHUTDOWN_GRACE, and the listening socket is closed.
        """
        if not self._http.is_running():
            return
        self._closing.set()
        self._connections.shut_all()
        self._http.stop()
        left = self._connections.join(SHUTDOWN_GRACE)
        if left:
            self._problem(f"{left} connection thread(s) still running after shutdown")

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    # -- where it is ---------------------------------------------------------------

    @property
    def port(self) -> int:
        return self._http.port

    @property
    def root_url(self) -> str:
        """`http://127.0.0.1:PORT`, no path."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT/v1`: what `MCA_BASE_URL` holds for a provider."""
        return self.root_url + "/v1"

    def env(self, api_key: str | None = None, model: str | None = None) -> dict[str, str]:
        """The environment that points a lab's agent here: by default this run's model and key
        (grader/checkkit/provider.py), names a person's own settings could hold."""
        return {"MCA_BASE_URL": self.base_url, "MCA_API_KEY": api_key or provider.api_key(),
                "MCA_MODEL": model or provider.model()}

    # -- what happened ---------------------------------------------------------------

    def then(self, *specs: Spec) -> FakeModelServer:
        """Append replies to the script."""
        with self._changed:
            self._script.extend(specs)
        return self

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request so far (any path), in arrival order; a copy."""
        with self._changed:
            return list(self._requests)

    @property
    def problems(self) -> list[str]:
        """What only the server saw: the script ran out, a model raised, a gate timed out, a chain refused."""
        with self._changed:
            return list(self._problems)

    def wait_for_requests(self, n: int, timeout: float = 5.0) -> list[RecordedRequest]:
        """The requests once `n` have arrived, or after `timeout` those there are (maybe fewer)."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._requests) >= n, timeout)
            return list(self._requests)

    # -- answering ---------------------------------------------------------------------

    def _answer(self, request: Request) -> Response:
        """Record the request, then refuse it like a real API would, or play the next reply."""
        recorded = _record(request)
        with self._changed:
            self._requests.append(recorded)
            self._changed.notify_all()
        spec = self._refusal(recorded) or self._next(recorded)
        if isinstance(spec, StreamReply):
            stream = spec.stream if recorded.asks_usage else spec.stream.without_usage()
            body = self._play(stream, request.environ.get("werkzeug.socket"))
            return Response(body, status=200, headers=spec.headers, direct_passthrough=True)
        return Response(spec.body, status=spec.status, headers=spec.headers)

    def _refusal(self, r: RecordedRequest) -> Reply | None:
        if r.path != CHAT_PATH:
            return reply_status(404, error_body(f"Invalid URL ({r.method} {r.path})"))
        if r.method != "POST":
            return reply_status(405, error_body(f"Method {r.method} not allowed on {r.path}; use POST"))
        if not isinstance(r.json, dict):
            return reply_status(400, error_body("We could not parse the JSON body of your request."))
        if self.api_key is not None and r.bearer != self.api_key and (r.bearer or self.lenient):
            return reply_status(401, error_body("Incorrect API key provided.", code="invalid_api_key"))
        if not isinstance(r.json.get("messages"), list):
            return reply_status(400, error_body("'messages' is a required property", param="messages"))
        if not r.model:
            return reply_status(400, error_body("you must provide a model parameter", param="model"))
        refusal = None if self.lenient else refused(r.json, r.headers.get("authorization"), chain=self.enforce_chain)
        if refusal is None:
            return None
        self._problem(kit_say("server.refused", status=refusal.status, what=refusal.what()))
        note_refusal(refusal)
        return reply_status(refusal.status, refusal.error())

    def _next(self, r: RecordedRequest) -> Spec:
        """The next scripted reply, else the model's answer, else a 500 naming what ran out."""
        with self._changed:
            spec = self._script.popleft() if self._script else None
        source = "the script"
        if spec is None and self._model is None:
            count = sum(1 for x in self.requests if x.path == CHAT_PATH)
            return self._failure(f"the script ran out: chat request {count} has no scripted reply")
        if spec is None:
            source = "the model function"
            try:
                spec = self._model(r)
            except Exception as exc:  # the check's model is broken: say so, do not hang
                return self._failure(f"the model function raised {type(exc).__name__}: {exc}")
        if not isinstance(spec, (Reply, StreamReply)):
            return self._failure(f"{source} gave a {type(spec).__name__}, not a reply")
        return spec

    def _failure(self, problem: str) -> Reply:
        self._problem(problem)
        return reply_status(500, error_body(f"fake model server: {problem}", "server_error", "fake_server_error"))

    def _play(self, stream: SSEStream, sock: socket.socket | None):
        """Yield the stream's writes one by one; Werkzeug writes and flushes each before asking again."""
        yield b""  # the status line and headers go out now, even if a gate comes first
        for item in stream.items:
            if self._closing.is_set():
                return
            if isinstance(item, bytes):
                yield item
            elif isinstance(item, Gate) and not self._wait(item):
                return
            elif isinstance(item, Pause) and self._closing.wait(item.seconds):
                return
            elif isinstance(item, Drop):
                shut(sock)
                return

    def _wait(self, gate: Gate) -> bool:
        """Wait for the check to open the gate; False when the server is closing."""
        gate.reached.set()
        deadline = time.monotonic() + gate.timeout
        while not gate.event.wait(0.02):
            if self._closing.is_set():
                return False
            if time.monotonic() >= deadline:
                gate.timed_out = True
                self._problem(f"a gate was not opened within {gate.timeout} s; the stream went on")
                break
        return True

    def _problem(self, text: str) -> None:
        with self._changed:
            self._problems.append(text)


def _record(request: Request) -> RecordedRequest:
    body = request.get_data()
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    headers = Headers((name.lower(), value) for name, value in request.headers.items())
    return RecordedRequest(request.method, request.path, headers, body, parsed, time.monotonic(),
                           request.query_string.decode("latin-1"))
