"""Day 02: a scripted sequence of agent events for the lab's Screen, and what it must print.

The rules are the screen's contract: the model's text goes to stdout the moment a
TextDelta comes; every line about the agent (tokens, tool calls, errors) goes to
stderr, and first ends the line the text is on; user, tool and system messages print
nothing. No assistant message in the script carries text (that is the business of
no-doubled-text): the check proves the screen reacts to agent events alone.
"""

from __future__ import annotations

import json
import random

from grader.checkkit.draws import mixed_text

from .streams import call_id, cut, short_text, tool_args, tool_name


def script(rng: random.Random) -> list[list]:
    """Turns of every kind, in random order: a reply that asks for tools, one that failed
    mid-stream (a gateway error), one that said nothing; and an error of the loop."""
    kinds = ["calls", "broken", "quiet", rng.choice(("calls", "broken"))]
    rng.shuffle(kinds)
    events: list[list] = []
    for kind in kinds:
        events.append(["user", short_text(rng)])
        if kind != "quiet":
            events += [["text", piece] for piece in cut(rng, mixed_text(rng, (3, 8)), rng.randint(1, 4))]
        if kind == "broken":
            events.append(["error", f"model request failed: {short_text(rng)}", "gateway"])
            continue
        events.append(["usage", rng.randrange(10, 99_999), rng.randrange(1, 9_999)])
        calls = [{"id": call_id(rng), "name": tool_name(rng), "args": tool_args(rng)}
                 for _ in range(rng.randint(1, 2))] if kind == "calls" else []
        events.append(["assistant", calls])
        events += [["tool", call["id"], "error: this agent has no tools yet"] for call in calls]
    events.insert(rng.randrange(1, len(events)), ["error", short_text(rng), "loop"])
    return events


def rendered(events: list[list], together: bool) -> dict:
    """What the screen must print for `events`: {"out", "err", "errors"}."""
    out: list[str] = []
    err = out if together else []
    state = {"open": False}

    def status(line: str) -> None:
        if state["open"]:
            out.append("\n")
            state["open"] = False
        err.append(line + "\n")

    errors = 0
    for kind, *values in events:
        if kind == "text":
            out.append(values[0])
            state["open"] = not values[0].endswith("\n")
        elif kind == "usage":
            status(f"  tokens: {values[0]} in, {values[1]} out")
        elif kind == "error":
            errors += values[1] == "gateway"
            status(f"error ({values[1]}): {values[0]}")
        elif kind == "assistant":
            for call in values[0]:
                status(f"  (the model asked for {call['name']}({json.dumps(call['args'], ensure_ascii=False)}); "
                       "no tool can run yet)")
    return {"out": "".join(out), "err": "".join(err) if not together else "", "errors": errors}


def first_difference(expected: str, seen: str) -> tuple[int, str, str]:
    """(line number, expected line, seen line) of the first line that differs."""
    a, b = expected.split("\n"), seen.split("\n")
    for number, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return number, x, y
    number = min(len(a), len(b)) + 1
    return number, a[number - 1] if number <= len(a) else "(nothing)", b[number - 1] if number <= len(b) else "(nothing)"


def described(events: list[list]) -> str:
    """The script in a few words, for a failure message."""
    names = {"user": "MessageAdded(user)", "text": "TextDelta", "usage": "UsageReported", "error": "ErrorOccurred",
             "assistant": "MessageAdded(assistant)", "tool": "MessageAdded(tool)"}
    shown: list[str] = []
    for kind, *_ in events:
        name = names[kind]
        if shown and shown[-1].startswith(name):
            count = int(shown[-1].rpartition("x")[2]) + 1 if " x" in shown[-1] else 2
            shown[-1] = f"{name} x{count}"
        else:
            shown.append(name)
    return ", ".join(shown)
