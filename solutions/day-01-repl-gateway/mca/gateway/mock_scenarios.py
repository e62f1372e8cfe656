"""The mock model's script: what it understands, one scenario per lesson.

This is data for the mock, not part of the agent, and no lab asks you to change it:
skip it unless you want to know why the mock said what it said. The mock (mock.py)
looks at the user's last line and answers with the first row of SCENARIOS (below)
that matches it; anything else gets HELP_TEXT. Each reply is still a pure function of
the messages: a scenario reads the tool results and earlier messages it is given.

What it understands:
* "my name is Ada" / "what is my name?" - remembering needs the history;
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

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


@dataclass(frozen=True)
class Conversation:
    """The messages as a scenario reads them, around the user's last line."""

    said: str             # the user's last line, without white space at its ends
    earlier: list[dict]   # the messages before it
    turn: list[dict]      # the messages after it: this turn's calls and results

    @property
    def request(self) -> str:
        return self.said.lower()

    @classmethod
    def of(cls, messages: list[dict]) -> "Conversation | None":
        start = last_user_index(messages)
        if start is None:
            return None
        said = str(messages[start].get("content", "")).strip()
        return cls(said, messages[:start], messages[start + 1:])


# The script: (does this row match?, the reply), tried in order; the first match answers.
SCENARIOS: list[tuple[Callable[[Conversation], object], Callable[[Conversation], Reply]]] = [
    (lambda c: NAME.search(c.said), lambda c: Reply(f"Nice to meet you, {NAME.search(c.said).group(1)}.")),
    (lambda c: "what is my name" in c.request, lambda c: name_reply(c.earlier)),
]


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
