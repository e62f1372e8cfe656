"""The mock model's script: what it understands, one scenario per lesson.

This is data for the mock, not part of the agent, and no lab asks you to change it:
skip it unless you want to know why the mock said what it said. The mock (mock.py)
looks at the user's last line and answers with the first row of SCENARIOS (below)
that matches it; anything else gets HELP_TEXT. Each reply is still a pure function of
the messages: a scenario reads the tool results and earlier messages it is given.

What it understands:
* "my name is Ada" / "what is my name?" - remembering needs the history;
* "read FILE" - asks for read_file (day 3 runs it), then says what the file holds;
* "what does divide do" - reads calc.py and quotes the divide function;
* "compare calc.py and test_calc.py" - two calls in one reply;
* "keep looking" - lists the directory again and again (the round cap stops it);
* "try broken calls" - calls with bad arguments and an unknown tool;
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

HELP_TEXT = (
    "I am the mock model, so I follow a short script. "
    'Try "what does divide do", "compare calc.py and test_calc.py" or "read calc.py". '
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
    (lambda c: "what does divide do" in c.request, lambda c: divide_reply(c.turn, c.next_id)),
    (lambda c: c.request.startswith("compare "),
     lambda c: compare_reply(c.said[len("compare "):], c.turn, c.next_id)),
    (lambda c: "keep looking" in c.request,
     lambda c: Reply("Let me look once more.", [(c.next_id, "list_dir", {"path": "."})])),
    (lambda c: "try broken calls" in c.request, lambda c: broken_calls_reply(c.turn, c.next_id)),
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


def divide_reply(turn: list[dict], next_id: str) -> Reply:
    """Read calc.py, then quote the divide function as it is in the file."""
    result = last_tool_result(turn)
    if result is None:
        return Reply("I will read calc.py.", [(next_id, "read_file", {"path": "calc.py"})])
    if is_refusal(result):
        return Reply(f"I could not read calc.py: {first_line(result)}")
    lines = result.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("def divide")), None)
    if start is None:
        return Reply("calc.py has no divide function.")
    body = [line.strip() for line in lines[start + 1:] if line.startswith((" ", "\t")) and line.strip()]
    last = body[-1] if body else "(nothing)"
    return Reply(f"divide is `{lines[start].strip()}` and it ends with `{last}`.")


def compare_reply(what: str, turn: list[dict], next_id: str) -> Reply:
    """Two files at once: one reply asks for both, the next compares them."""
    paths = [p.strip() for p in re.split(r"\band\b|,", what) if p.strip()][:2]
    results = tool_results(turn)
    if not results:
        calls = [(f"{next_id}_{n}", "read_file", {"path": path}) for n, path in enumerate(paths, 1)]
        return Reply(f"I will read {' and '.join(paths)}.", calls)
    parts = []
    for path, result in zip(paths, results):
        if is_refusal(result):
            parts.append(f"{path}: {first_line(result)}")
        else:
            names = re.findall(r"^\s*(?:def|class) (\w+)", result, re.MULTILINE)
            parts.append(f"{path} has {len(result.splitlines())} lines ({', '.join(names) or 'no definitions'})")
    return Reply("; ".join(parts) + ".")


def broken_calls_reply(turn: list[dict], next_id: str) -> Reply:
    """Calls a careless model makes: bad JSON, a missing and a mistyped argument, a made-up tool."""
    results = tool_results(turn)
    if not results:
        return Reply("Let me try a few things.", [
            (f"{next_id}_1", "read_file", '{"path": "calc.py"'),   # not valid JSON: sent as it is
            (f"{next_id}_2", "read_file", {}),
            (f"{next_id}_3", "read_file", {"path": 7}),
            (f"{next_id}_4", "summon_files", {"path": "."}),
        ])
    return Reply("Those calls failed: " + " | ".join(first_line(r) for r in results))


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
