"""A mock model: deterministic, and driven only by the messages it is given.

Its next reply is a pure function of the message list. That is the point: it has
no memory of its own, exactly like a real model, so if the conversation is not
sent back in full, the mock cannot know what was said before - and a test can tell.
It refuses a history no real API would accept (gateway/chain.py), with the same kind
of error.

What it understands (anything else gets a short help line):
* "my name is Ada" / "what is my name?" - remembering needs the history;
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import GatewayError
from .chain import find_break

HELP_TEXT = (
    "I am the mock model, so I follow a short script. "
    'Try "my name is Ada", then "what is my name?". '
    "Set MCA_API_KEY (and leave MOCK unset) to talk to a real model."
)
NAME = re.compile(r"\bmy name is ([^\s.,!?]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Reply:
    """What the mock decided to say: text, then tool calls as (id, name, args)."""

    text: str
    calls: list[tuple[str, str, dict]] = field(default_factory=list)


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


# --- deciding -------------------------------------------------------------------

def decide(messages: list[dict]) -> Reply:
    """Choose the next reply from the conversation so far."""
    start = last_user_index(messages)
    if start is None:
        return Reply(HELP_TEXT)
    earlier, turn = messages[:start], messages[start + 1:]
    said = str(messages[start].get("content", "")).strip()
    request = said.lower()
    named = NAME.search(str(messages[start].get("content", "")))
    if named:
        return Reply(f"Nice to meet you, {named.group(1)}.")
    if "what is my name" in request:
        return name_reply(earlier)
    return Reply(HELP_TEXT)


def name_reply(earlier: list[dict]) -> Reply:
    """Day 1's lesson: the name is only known if the history carries it back in."""
    for message in reversed(earlier):
        named = NAME.search(str(message.get("content", ""))) if message.get("role") == "user" else None
        if named:
            return Reply(f"Your name is {named.group(1)}.")
    return Reply("I have no record of your name in this conversation.")


# --- reading the history --------------------------------------------------------

def last_user_index(messages: list[dict]) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            return index
    return None
