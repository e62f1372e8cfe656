# [day 1]
"""What a model gateway is: one method that takes the conversation and gives a reply.

The model keeps nothing between calls. Whoever talks to it sends the whole
conversation every time, and a gateway is the seam where that happens: the mock
and a real HTTP client both take a list of messages and give back the reply's
text, so either can stand in for the other.
"""
# [or day 2+]
"""What a model gateway streams, and the one method every gateway has.

A model does not answer in one piece: it streams small deltas. Text arrives a few
words at a time; a tool call arrives as chunks that share an ``index`` (the first
chunk carries the id and the name, later ones only more characters of the JSON
arguments). The agent loop merges them back together. Keeping this shape in one
small module lets the mock and a real gateway be swapped freely.
"""
# [/day]

from __future__ import annotations

# [day 1]
from typing import Protocol
# [or day 2+]
from dataclasses import dataclass
from typing import Iterator, Protocol
# [/day]


class GatewayError(RuntimeError):
    """A request to the model failed, in one line a person can read.

    ``status`` is the HTTP status when there was one; ``transient`` marks failures
    that are not the request's fault (a refused or reset connection, a timeout).
    # [day 6+]
    ``retry_after`` is how long the server asked us to wait, in seconds.
    # [/day]
    """

    def __init__(self, message: str, *, status: int | None = None, transient: bool = False,
                 # [day 6+]
                 retry_after: float | None = None,
                 # [/day]
                 ) -> None:
        super().__init__(message)
        self.status = status
        self.transient = transient
        # [day 6+]
        self.retry_after = retry_after
        # [/day]
# [day 1]


class Gateway(Protocol):
    """Anything that can answer a list of messages."""

    def complete(self, messages: list[dict]) -> str:
        """The model's reply to ``messages`` (the whole conversation so far)."""
        ...
# [or day 2+]


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
# [/day]


def rough_tokens(text: str) -> int:
    """A cheap, deterministic token estimate: about four characters per token.

    Good enough to watch a conversation grow; a real tokenizer would differ by model.
    """
    return (len(text) + 3) // 4
