"""What the fake model server answers: plain data, built before the request comes.

A check scripts a conversation as a list of these (or returns one from a model
function). They hold no server state, so one can be printed in a failure
message or compared in a test; `fakeserver` turns them into HTTP responses.
"""

from __future__ import annotations

import email.utils
import json
import math
import time
from dataclasses import dataclass, field
from http import HTTPStatus

from . import provider
from .sse import SSEStream

SSE_HEADERS = {"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"}


@dataclass(frozen=True)
class Reply:
    """A whole response: status, headers and a body sent with its Content-Length."""

    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> object:
        return json.loads(self.body)


@dataclass(frozen=True)
class StreamReply:
    """A 200 whose body is an SSE stream, written write by write (chunked)."""

    stream: SSEStream
    headers: dict[str, str] = field(default_factory=lambda: dict(SSE_HEADERS))


Spec = Reply | StreamReply


def reply_json(content: str | None, tool_calls: list[dict] | None = None, usage: dict | None = None,
               finish_reason: str | None = None, model: str | None = None) -> Reply:
    """A non-streamed chat completion; `choices[0].message.content` is `content` (None allowed).

    A tool call is given as `{"id", "name", "arguments"}` (arguments a dict or a
    JSON string) and sent in the provider's shape, arguments as a JSON string.
    `finish_reason` defaults to "tool_calls" when there are calls, else "stop".
    """
    message: dict = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [_provider_call(call) for call in tool_calls]
    body = {
        "id": provider.completion_id(), "object": "chat.completion", "created": provider.current().created,
        "model": model or provider.model(),
        "choices": [{"index": 0, "message": message,
                     "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop")}],
        "usage": usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    return _json(200, body)


def reply_stream(events: SSEStream, headers: dict[str, str] | None = None) -> StreamReply:
    """Stream `events` as `text/event-stream`, one socket write per write of the stream."""
    return StreamReply(events, {**SSE_HEADERS, **(headers or {})})


def streamed_text(text: str, usage: tuple[int, int] = (100, 5), model: str | None = None) -> StreamReply:
    """A streamed plain answer as providers send it: role, the text, stop, usage, [DONE]."""
    return reply_stream(SSEStream(model or provider.model()).role().text(text).finish().usage(*usage).done())


def streamed_calls(text: str, calls: list[tuple[str, str, dict | str]], usage: tuple[int, int] = (100, 20),
                   model: str | None = None) -> StreamReply:
    """A streamed answer that asks for tools: `text` (may be ""), then `calls` as (id, name, args),
    each call's arguments (a dict, or JSON text sent as it is) in two fragments."""
    wire = [(cid, name, args if isinstance(args, str) else json.dumps(args, ensure_ascii=False))
            for cid, name, args in calls]
    stream = SSEStream(model or provider.model()).role()
    if text:
        stream.text(text)
    return reply_stream(stream.tool_calls(wire, pieces=2).finish("tool_calls").usage(*usage).done())


def reply_status(code: int, body_json: object = None, headers: dict[str, str] | None = None,
                 *, text: str | None = None) -> Reply:
    """An HTTP status with a JSON body (default: a provider-shaped error naming the status).

    `text` sends a non-JSON body instead (a proxy's HTML page, say). Headers such
    as `{"Retry-After": "2"}` or `{"Retry-After": http_date(2)}` go out as given.
    """
    if text is not None:
        return Reply(code, text.encode("utf-8"), {"Content-Type": "text/plain; charset=utf-8", **(headers or {})})
    if body_json is None:
        body_json = error_body(_phrase(code), "server_error" if code >= 500 else "invalid_request_error")
    return _json(code, body_json, headers)


def error_body(message: str, type: str = "invalid_request_error", code: str | None = None,
               param: str | None = None) -> dict:
    """The error object OpenAI-compatible APIs send: `{"error": {"message", "type", "param", "code"}}`."""
    return {"error": {"message": message, "type": type, "param": param, "code": code}}


def http_date(seconds_from_now: float, now: float | None = None) -> str:
    """An HTTP date (`Retry-After` form) at least `seconds_from_now` ahead.

    HTTP dates have whole seconds; rounding up keeps "retry no sooner than the
    date" true for the delay asked for.
    """
    moment = math.ceil((time.time() if now is None else now) + seconds_from_now)
    return email.utils.formatdate(moment, usegmt=True)


def _json(status: int, body: object, headers: dict[str, str] | None = None) -> Reply:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    return Reply(status, data, {"Content-Type": "application/json", **(headers or {})})


def _provider_call(call: dict) -> dict:
    if "function" in call:  # already in the provider's shape
        return call
    arguments = call.get("arguments", {})
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, ensure_ascii=False)
    return {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": arguments}}


def _phrase(code: int) -> str:
    try:
        return f"{code} {HTTPStatus(code).phrase}"
    except ValueError:
        return f"HTTP {code}"
