"""A real gateway: any OpenAI-compatible chat-completions API.

Optional: the mock is enough for the whole course. This client is small on
purpose - the standard library's urllib and nothing else - so that it can be read
in one sitting. It translates both ways: our messages to the provider's shape on
the way out, the provider's answer back to ours on the way in.

The reply is streamed: server-sent events (sse.py) carry small JSON chunks, which
become StreamDeltas.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from http.client import HTTPException
from typing import Iterator
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone

from .base import GatewayError, StreamDelta, ToolCallChunk, Usage
from .sse import read_events


def to_provider(message: dict) -> dict:
    """Our message dict -> the provider's (tool arguments travel as a JSON string)."""
    out = {"role": message["role"], "content": message.get("content", "")}
    if message.get("tool_calls"):
        out["tool_calls"] = [
            {"id": c["id"], "type": "function",
             "function": {"name": c["name"], "arguments": json.dumps(c.get("args", {}))}}
            for c in message["tool_calls"]
        ]
    if message.get("tool_call_id"):
        out["tool_call_id"] = message["tool_call_id"]
    return out


def build_request(base_url: str, api_key: str, model: str, messages: list[dict], *, stream: bool = False,
                  tools: list[dict] | None = None) -> urllib.request.Request:
    """The HTTP request for one chat completion.

    ``POST {base}/v1/chat/completions`` whether the base URL ends in ``/v1`` or not,
    with or without a trailing slash (``.../v1/v1`` is a 404 on every provider), the key
    as a Bearer token, and a JSON body with the model and the messages.
    """
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body: dict = {"model": model, "messages": [to_provider(m) for m in messages]}
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}  # the last chunk then reports the tokens
    if tools:
        body["tools"] = [{"type": "function", "function": tool} for tool in tools]
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )


def parse_reply(body: bytes) -> str:
    """The text of a (non-streamed) chat completion: ``choices[0].message.content``.

    A reply may carry no text at all (content null, e.g. when the model only calls
    tools): that is an empty string, not an error.
    """
    try:
        data = json.loads(body)
        content = data["choices"][0]["message"].get("content")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise GatewayError(f"the server's answer is not a chat completion: {body[:200]!r}") from None
    return content or ""


def error_of(exc: Exception, url: str) -> GatewayError:
    """A failed request as one line: the HTTP status and the server's own message, or what
    kept us from reaching the server at all."""
    if isinstance(exc, urllib.error.HTTPError):
        detail = exc.read().decode("utf-8", errors="replace")
        try:
            detail = json.loads(detail)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            pass
        detail = " ".join(str(detail).split())[:300] or exc.reason
        return GatewayError(f"HTTP {exc.code}: {detail}", status=exc.code)
    reason = getattr(exc, "reason", exc)
    return GatewayError(f"cannot reach {url}: {reason}", transient=True)


def retry_after_of(exc: Exception) -> float | None:
    """Seconds the server asked us to wait (``Retry-After``: seconds, or an HTTP date)."""
    value = getattr(exc, "headers", None) and exc.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


class OpenAICompatGateway:
    """Talks to ``base_url`` with ``model``."""

    def __init__(self, api_key: str, base_url: str, model: str, timeout: float = 120.0) -> None:
        self.api_key = api_key
        self.base_url = base_url
        self.model = model
        self.timeout = timeout

    def stream(self, messages: list[dict], tools: list[dict] | None = None) -> Iterator[StreamDelta]:
        request = build_request(self.base_url, self.api_key, self.model, messages, stream=True, tools=tools)
        try:
            response = urllib.request.urlopen(request, timeout=self.timeout)
        except (urllib.error.URLError, OSError) as exc:  # HTTPError is a URLError too
            error = error_of(exc, request.full_url)
            error.retry_after = retry_after_of(exc)
            raise error from None
        with response:
            if "event-stream" not in (response.headers.get("Content-Type") or ""):
                # A server that ignores "stream": true answers all at once.
                yield StreamDelta(text=parse_reply(response.read()))
                yield StreamDelta(finish="stop")
                return
            chunks = iter(lambda: response.read1(65536), b"")  # bytes as they arrive, split anywhere
            try:
                for payload in read_events(chunks):
                    yield from deltas_of(payload)
            except (OSError, HTTPException) as exc:  # the connection broke mid-stream
                raise GatewayError(f"the stream broke: {exc}", transient=True) from None


def deltas_of(chunk: dict) -> Iterator[StreamDelta]:
    """The StreamDeltas inside one provider chunk (the usage chunk has no choices at all)."""
    if chunk.get("usage"):
        usage = chunk["usage"]
        yield StreamDelta(usage=Usage(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)))
    for choice in chunk.get("choices") or []:
        delta = choice.get("delta") or {}
        if delta.get("content"):
            yield StreamDelta(text=delta["content"])
        for call in delta.get("tool_calls") or []:
            function = call.get("function") or {}
            yield StreamDelta(tool_call=ToolCallChunk(
                call.get("index", 0), call.get("id") or None, function.get("name") or None,
                function.get("arguments") or ""))
        if choice.get("finish_reason"):
            yield StreamDelta(finish=choice["finish_reason"])
