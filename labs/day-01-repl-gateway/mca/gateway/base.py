"""What a model gateway is: one method that takes the conversation and gives a reply.

The model keeps nothing between calls. Whoever talks to it sends the whole
conversation every time, and a gateway is the seam where that happens: the mock
and a real HTTP client both take a list of messages and give back the reply's
text, so either can stand in for the other.
"""

from __future__ import annotations

from typing import Protocol


class GatewayError(RuntimeError):
    """A request to the model failed, in one line a person can read.

    ``status`` is the HTTP status when there was one; ``transient`` marks failures
    that are not the request's fault (a refused or reset connection, a timeout).
    """

    def __init__(self, message: str, *, status: int | None = None, transient: bool = False,
                 ) -> None:
        super().__init__(message)
        self.status = status
        self.transient = transient


class Gateway(Protocol):
    """Anything that can answer a list of messages."""

    def complete(self, messages: list[dict]) -> str:
        """The model's reply to ``messages`` (the whole conversation so far)."""
        ...


def rough_tokens(text: str) -> int:
    """A cheap, deterministic token estimate: about four characters per token.

    Good enough to watch a conversation grow; a real tokenizer would differ by model.
    """
    return (len(text) + 3) // 4
