"""What a model gateway streams, and the one method every gateway has.

A model does not answer in one piece: it streams small deltas. Text arrives a few
words at a time; a tool call arrives as chunks that share an ``index`` (the first
chunk carries the id and the name, later ones only more characters of the JSON
arguments). The agent loop merges them back together. Keeping this shape in one
small module lets the mock and a real gateway be swapped freely.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Protocol


class GatewayError(RuntimeError):
    """A request to the model failed, in one line a person can read.

    ``status`` is the HTTP status when there was one; ``transient`` marks failures
    that are not the request's fault (a refused or reset connection, a timeout).
    ``retry_after`` is how long the server asked us to wait, in seconds.
    """

    def __init__(self, message: str, *, status: int | None = None, transient: bool = False,
                 retry_after: float | None = None,
                 ) -> None:
        super().__init__(message)
        self.status = status
        self.transient = transient
        self.retry_after = retry_after


@dataclass(frozen=True)
class ToolCallChunk:
    """A piece of one tool call; chunks with the same index belong together."""

    index: int
    id: str | None = None
    name: str | None = None
    args: str = ""  # a fragment of the JSON arguments, not valid JSON on its own


@dataclass(frozen=True)
class Usage:
    """Tokens the provider counted for one request."""

    input_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class StreamDelta:
    """One item of a model's stream: usually exactly one of these fields is set."""

    text: str = ""
    tool_call: ToolCallChunk | None = None
    usage: Usage | None = None
    finish: str | None = None  # "stop" or "tool_calls" at the end of the stream


class Gateway(Protocol):
    """Anything that can stream a reply to a list of messages."""

    def stream(self, messages: list[dict], tools: list[dict] | None = None) -> Iterator[StreamDelta]:
        """Stream the model's next reply to ``messages``, offering ``tools``."""
        ...


def rough_tokens(text: str) -> int:
    """A cheap, deterministic token estimate: about four characters per token.

    Good enough to watch a conversation grow; a real tokenizer would differ by model.
    """
    return (len(text) + 3) // 4
