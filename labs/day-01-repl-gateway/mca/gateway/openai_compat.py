"""A real gateway: any OpenAI-compatible chat-completions API.

Optional: the mock is enough for the whole course. This client is small on
purpose - the standard library's urllib and nothing else - so that it can be read
in one sitting. It translates both ways: our messages to the provider's shape on
the way out, the provider's answer back to ours on the way in.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from .base import GatewayError


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
    raise NotImplementedError(
        "TODO(E3): build the POST request: {base}/v1/chat/completions (never /v1/v1), "
        "an Authorization: Bearer header, and a JSON body with model and messages")


def parse_reply(body: bytes) -> str:
    """The text of a (non-streamed) chat completion: ``choices[0].message.content``.

    A reply may carry no text at all (content null, e.g. when the model only calls
    tools): that is an empty string, not an error.
    """
    raise NotImplementedError("TODO(E4): return choices[0].message.content (null content: an empty reply)")


def error_of(exc: Exception, url: str) -> GatewayError:
    """A failed request as one line: ``HTTP <status>: <the server's own message>`` when the
    server answered with an error, ``cannot reach <url>: <why>`` when no answer came."""
    raise NotImplementedError("TODO(E4): turn an HTTP error or a connection failure into one GatewayError line")


class OpenAICompatGateway:
    """Talks to ``base_url`` with ``model``."""

    def __init__(self, api_key: str, base_url: str, model: str, timeout: float = 120.0) -> None:
        self.api_key = api_key
        self.base_url = base_url
        self.model = model
        self.timeout = timeout

    def complete(self, messages: list[dict]) -> str:
        request = build_request(self.base_url, self.api_key, self.model, messages)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return parse_reply(response.read())
        except (urllib.error.URLError, OSError) as exc:  # HTTPError is a URLError too
            raise error_of(exc, request.full_url) from None
