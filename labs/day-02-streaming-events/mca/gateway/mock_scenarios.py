"""The mock model's script: what it understands, one scenario per lesson.

This is data for the mock, not part of the agent, and no lab asks you to change it:
skip it unless you want to know why the mock said what it said. The mock (mock.py)
looks at the user's last line and answers with the first row of SCENARIOS (below)
that matches it; anything else gets HELP_TEXT. Each reply is still a pure function of
the messages: a scenario reads the tool results and earlier messages it is given.

What it understands:
* "my name is Ada" / "what is my name?" - remembering needs the history;
* "read FILE" - asks for read_file (day 3 runs it), then says what the file holds;
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

HELP_TEXT = (
    "I am the mock model, so I follow a short script. "
    'Try "my name is Ada", then "what is my name?", or "read calc.py". '
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
    next_id: str          # the id of a new call: call_1, call_2, ... counted over the whole history

    @property
    def request(self) -> str:
        return self.said.lower()

    @classmethod
    def of(cls, messages: list[dict]) -> "Conversation | None":
        start = last_user_index(messages)
        if start is None:
            return None
        said = str(messages[start].get("content", "")).strip()
        return cls(said, messages[:start], messages[start + 1:], f"call_{count_tool_calls(messages) + 1}")


# The script: (does this row match?, the reply), tried in order; the first match answers.
SCENARIOS: list[tuple[Callable[[Conversation], object], Callable[[Conversation], Reply]]] = [
    (lambda c: NAME.search(c.said), lambda c: Reply(f"Nice to meet you, {NAME.search(c.said).group(1)}.")),
    (lambda c: "what is my name" in c.request, lambda c: name_reply(c.earlier)),
    (lambda c: c.request.startswith("read "), lambda c: read_reply(c.said[5:].strip(), c.turn, c.next_id)),
]


def name_reply(earlier: list[dict]) -> Reply:
    """Day 1's lesson: the name is only known if the history carries it back in."""
    for message in reversed(earlier):
        named = NAME.search(str(message.get("content", ""))) if message.get("role") == "user" else None
        if named:
            return Reply(f"Your name is {named.group(1)}.")
    return Reply("I have no record of your name in this conversation.")


def read_reply(path: str, turn: list[dict], next_id: str) -> Reply:
    """Read a file with the read_file tool, then say what it defines."""
    result = last_tool_result(turn)
    if result is None:
        return Reply(f"I will read {path}.", [(next_id, "read_file", {"path": path})])
    if is_refusal(result):
        return Reply(f"I could not read {path}: {first_line(result)}")
    names = re.findall(r"^(?:def|class) (\w+)", result, re.MULTILINE)
    defines = f" and defines {', '.join(names)}" if names else ""
    return Reply(f"{path} has {len(result.splitlines())} lines{defines}.")


# --- reading the history --------------------------------------------------------

def last_user_index(messages: list[dict]) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            return index
    return None


def count_tool_calls(messages: list[dict]) -> int:
    """How many tool calls the history holds: gives deterministic ids call_1, call_2..."""
    return sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")


def calls_in(turn: list[dict]) -> list[tuple[str, dict]]:
    """(name, args) of every call the model made in this turn, in order."""
    return [(call["name"], call.get("args", {})) for m in turn for call in m.get("tool_calls") or []]


def tool_results(turn: list[dict]) -> list[str]:
    return [str(m.get("content", "")) for m in turn if m.get("role") == "tool"]


def last_tool_result(turn: list[dict]) -> str | None:
    return last_tool_call_and_result(turn)[1]


def last_tool_call_and_result(turn: list[dict]) -> tuple[str | None, str | None]:
    """The name and result of the latest tool call in this turn, if any."""
    names = {call["id"]: call["name"] for m in turn for call in m.get("tool_calls") or []}
    for message in reversed(turn):
        if message.get("role") == "tool":
            return names.get(message.get("tool_call_id")), str(message.get("content", ""))
    return None, None


def is_refusal(result: str) -> bool:
    """Tool results that start like this mean the tool did not do its job."""
    return result.startswith(("error:", "denied:", "blocked:"))


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""
