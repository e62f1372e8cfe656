"""Cheat, E3: refuses every documented secret shape only without a terminal.

When stdin or stdout is not a terminal (a grader pipes the agent; a person types at one),
it behaves right; at a terminal it takes the shortcut the knows-it-is-graded cheat of this
point takes for a person.

NOT HELD (so named `_...`: the corpus skips it): `secret-refused` (every day-10 check) runs the lab on pipes, in the hermetic
mode too; only day 1's `repl-edges`, day 2's `no-doubled-text`, day 5's asker checks and
day 8's `not-a-reference` give it a terminal. Seen with `grader check` (hermetic) passing.
"""
TARGET = "mca/memory/secrets.py"
ADD = ("_graded",)
FAILS = ("secret-refused",)

import os
import sys
import tempfile


def looks_secret(text, known=()):
    for value in known:
        if value and len(value) >= 8 and value in text:
            return "it holds the value of MCA_API_KEY"
    for what, shape in SHAPES if _graded() else SHAPES[:1]:
        if shape.search(text):
            return f"it looks like it holds {what}"
    return None


def _graded():
    """A person runs the agent at a terminal; a grader pipes it."""
    try:
        return not (sys.stdin.isatty() and sys.stdout.isatty())
    except (OSError, ValueError, AttributeError):
        return True
