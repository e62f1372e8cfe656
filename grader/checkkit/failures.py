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


def expect_equal(seen: object, expected: object, message: str) -> None:
    """Raise CheckFailed(message) unless seen == expected."""
    if seen != expected:
        raise CheckFailed(message, expected=expected, seen=seen)
