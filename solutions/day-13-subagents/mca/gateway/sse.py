"""Server-sent events: how a streamed reply travels, and how to read it back.

The server writes lines. ``data: {...}`` lines carry the payload; a blank line ends
an event (several ``data:`` lines of one event join with a newline); a line that
starts with ``:`` is a comment (providers send them as keep-alives); the space
after the colon is optional; lines may end in ``\\r\\n``. ``data: [DONE]`` ends the
stream on purpose. The bytes arrive in chunks split anywhere, even inside a UTF-8
character, so they are joined into lines before anything is decoded. A stream that
stops without ``[DONE]`` was cut, and a payload with an ``error`` key is the server
reporting a failure in the middle of the reply.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator

from .base import GatewayError

DONE = "[DONE]"


def read_events(chunks: Iterable[bytes]) -> Iterator[dict]:
    """The JSON payload of each event, in order; raise GatewayError for a cut stream or an error."""
    buffer = b""
    data: list[str] = []
    for chunk in chunks:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8")
            if line == "":  # a blank line ends the event
                if data:
                    payload = "\n".join(data)
                    data = []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
                continue
            if line.startswith(":"):
                continue  # a comment: a keep-alive
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)


def payload_of(text: str) -> dict:
    """One event's data as a dict; an ``error`` payload becomes a GatewayError."""
    try:
        payload = json.loads(text)
    except ValueError:
        raise GatewayError(f"the server sent something that is not JSON: {text[:200]!r}") from None
    if isinstance(payload, dict) and payload.get("error"):
        error = payload["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise GatewayError(f"the server reported an error mid-stream: {message}")
    if not isinstance(payload, dict):
        raise GatewayError(f"the server sent an event that is not a JSON object: {text[:200]!r}")
    return payload
