"""A mock model: deterministic, and driven only by the messages it is given.

Its next reply is a pure function of the message list. That is the point: it has
no memory of its own, exactly like a real model, so if the conversation is not
sent back in full, the mock cannot know what was said before - and a test can tell.
It refuses a history no real API would accept (gateway/chain.py), with the same kind
of error.

What it says is a script of short scenarios, one per lesson, in mock_scenarios.py: data
for the mock, which you can skip (its docstring lists what to try).
"""

from __future__ import annotations

from .base import GatewayError
from .chain import find_break
from .mock_scenarios import HELP_TEXT, SCENARIOS, Conversation, Reply


class MockGateway:
    """A Gateway whose reply depends only on the messages passed in."""

    def complete(self, messages: list[dict]) -> str:
        refuse_invalid(messages)
        return decide(messages).text


def refuse_invalid(messages: list[dict]) -> None:
    """As a real API does: a history that breaks the chain rule is a 400, not worth a retry."""
    broken = find_break(messages)
    if broken is not None:
        raise GatewayError(f"HTTP 400: invalid history: {broken.problem}", status=400)


def decide(messages: list[dict]) -> Reply:
    """Choose the next reply from the conversation so far: the first scenario that matches."""
    conversation = Conversation.of(messages)
    if conversation is None:
        return Reply(HELP_TEXT)
    for matches, answer in SCENARIOS:
        if matches(conversation):
            return answer(conversation)
    return Reply(HELP_TEXT)
