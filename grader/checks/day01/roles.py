"""Day 01: comparing message lists - the history a request carried with the one it should.

Only `role` and `content` are compared: they are what a chat API reads from each
message (a gateway may add fields of its own). A difference is told as the first
place the lists part, in words from messages.toml.
"""

from __future__ import annotations

from pathlib import Path

from grader.checkkit import short
from grader.checkkit.messages import Messages


def roles(messages: list) -> str:
    """`user, assistant, user` (or `nothing`): the shape of a list at a glance."""
    names = [str(m.get("role")) if isinstance(m, dict) else type(m).__name__ for m in messages]
    return ", ".join(names) or Messages.for_day(Path(__file__).parent)("brief.nothing")


def first_difference(say, seen: list, expected: list) -> str | None:
    """How `seen` differs from `expected` (how many, then role and content in order), or None."""
    if len(seen) != len(expected):
        pairs = [(m.get("role"), m.get("content")) for m in seen]
        if pairs == [(m["role"], m["content"]) for m in expected if m["content"] != ""]:
            return say("diff.empty_dropped", count=len(seen), expected=len(expected))
        return say("diff.count", count=len(seen), expected=len(expected))
    for index, (got, want) in enumerate(zip(seen, expected), 1):
        if got.get("role") != want["role"]:
            return say("diff.role", index=index, role=got.get("role"), expected=want["role"])
        content = got.get("content")
        if content != want["content"]:
            if isinstance(content, str) and content.strip() == want["content"].strip():
                return say("diff.ends", index=index, role=want["role"], seen=short(repr(content), 80),
                           expected=short(repr(want["content"]), 80))
            return say("diff.content", index=index, role=want["role"], seen=short(content, 80),
                       expected=short(want["content"], 80))
    return None
