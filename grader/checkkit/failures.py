"""How a check fails in words a student can act on.

A check fails by raising `CheckFailed(message, expected=..., seen=...)` (or by a
plain `assert` with a message). Keep `expected` and `seen` to a line each: the
report prints them as they are.
"""

from __future__ import annotations


class CheckFailed(Exception):
    """The lab did not do what the check expects."""

    def __init__(self, message: str, *, expected: object = None, seen: object = None):
        super().__init__(message)
        self.message = message
        self.expected = None if expected is None else short(expected)
        self.seen = None if seen is None else short(seen)


def short(value: object, limit: int = 300) -> str:
    """One readable line (or a few) of `value`, cut with an ellipsis when long."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_end(value: object, limit: int = 300) -> str:
    """Like `short`, but the end of `value` is kept: an ellipsis, then its last characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else "…" + text[len(text) - limit + 1:]


def expect_equal(seen: object, expected: object, message: str) -> None:
    """Raise CheckFailed(message) unless seen == expected."""
    if seen != expected:
        raise CheckFailed(message, expected=expected, seen=seen)


def differing(seen: object, expected: object, width: int = 60) -> tuple[str, str]:
    """Excerpts of `seen` and `expected` (as reprs) around where they first differ.

    Two long strings cut at the same length look equal when they differ at the end (a
    trailing newline, a stripped space); these excerpts start a little before the first
    differing character, so the difference is always in view.
    """
    a, b = repr(seen), repr(expected)  # reprs: a newline or a tab shows as \n, \t
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, first - width // 3)

    def excerpt(text: str) -> str:
        piece = text[start:start + width]
        return ("…" if start else "") + piece + ("…" if start + width < len(text) else "")

    return excerpt(a), excerpt(b)
