"""A real gateway: any OpenAI-compatible chat-completions API, streamed.

Optional: the mock is enough for the whole course. This client is small on
purpose - the standard library's urllib, server-sent events read line by line -
so that it can be read in one sitting. It translates both ways: our messages to
the provider's shape on the way out, the provider's stream to StreamDeltas on the
way in.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Iterator

from .base import GatewayError, StreamDelta, ToolCallChunk, Usage

RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504}


class OpenAICompatGateway:
    """Streams chat completions from ``base_url`` with ``model``."""

    def __init__(self, api_key: str, base_url: str, model: str, timeout: float = 120.0) -> None:
        self.api_key = api_key
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout = timeout

    def stream(self, messages: list[dict], tools: list[dict]) -> Iterator[StreamDelta]:
        body = {
            "model": self.model,
            "messages": [to_provider(m) for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if tools:
            body["tools"] = [{"type": "function", "function": t} for t in tools]
        request = urllib.request.Request(
            self.url, data=json.dumps(body).encode("utf-8"), method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"},
        )
        try:
            response = urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", errors="replace")[:300]
            raise GatewayError(f"HTTP {exc.code}: {detail}", retryable=exc.code in RETRYABLE_STATUS) from None
        except (urllib.error.URLError, OSError) as exc:
            raise GatewayError(f"cannot reach {self.url}: {exc}") from None
        with response:
            try:
                yield from read_events(response)
            except OSError as exc:  # the connection broke mid-stream
                raise GatewayError(f"the stream broke: {exc}") from None


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


def read_events(lines) -> Iterator[StreamDelta]:
    """Turn ``data: {...}`` lines of a server-sent event stream into StreamDeltas."""
    for raw in lines:
        line = raw.decode("utf-8").strip()
        if not line.startswith("data:"):
            continue  # blank keep-alive lines and comments
        data = line[len("data:"):].strip()
        if data == "[DONE]":
            return
        yield from deltas_of(json.loads(data))


def deltas_of(chunk: dict) -> Iterator[StreamDelta]:
    """The StreamDeltas inside one provider chunk."""
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
                call.get("index", 0), call.get("id"), function.get("name"), function.get("arguments") or ""))
        if choice.get("finish_reason"):
            yield StreamDelta(finish=choice["finish_reason"])
