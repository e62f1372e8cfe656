"""The bill: every injection accounted for, on the screen and in the log.

What the agent puts into the context on its own costs tokens on this request and on
every later one, so the user sees it: one line per reference, then the total::

    injected: calc.py 612 chars ≈ 153 tokens
    injected: total 1 ref, 612 chars ≈ 153 tokens

and the session log gets one ``injected`` event with the same figures, written before
the user message that carries the text.

The estimate (no tokenizer: it is a bill to read, not an invoice). A character below
U+0800 (Latin, digits, punctuation, most European scripts: one or two bytes in UTF-8)
is a quarter of a token, and a character at or above U+0800 (CJK, kana, hangul, emoji:
three or four bytes in UTF-8) is one token; the two are added and rounded up:
``tokens = ceil(narrow / 4) + wide``. The total's tokens are the sum of the lines'.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .inject import Injection

WIDE_FROM = 0x0800  # the first code point that takes three bytes in UTF-8


@dataclass
class Bill:
    """The lines to print and the fields of the ``injected`` event (None: nothing was injected)."""

    lines: list[str] = field(default_factory=list)
    event: dict | None = None


def estimate_tokens(text: str) -> int:
    """ceil(narrow / 4) + wide, where wide characters are those at or above U+0800."""
    wide = sum(1 for ch in text if ord(ch) >= WIDE_FROM)
    narrow = len(text) - wide
    return (narrow + 3) // 4 + wide


def bill(injections: list[Injection]) -> Bill:
    """One line per injected reference, then the total; the event holds the same figures."""
    sent = [i for i in injections if i.note is None]
    if not sent:
        return Bill()
    lines, refs = [], []
    for injection in sent:
        tokens = estimate_tokens(injection.sent)
        cut = f" (cut from {injection.original} chars)" if injection.truncated else ""
        lines.append(f"injected: {injection.ref} {injection.chars} chars ≈ {tokens} tokens{cut}")
        refs.append({"ref": injection.ref, "kind": injection.kind, "chars": injection.chars, "tokens": tokens,
                     "truncated": injection.truncated})
    chars = sum(r["chars"] for r in refs)
    tokens = sum(r["tokens"] for r in refs)
    noun = "ref" if len(refs) == 1 else "refs"
    lines.append(f"injected: total {len(refs)} {noun}, {chars} chars ≈ {tokens} tokens")
    return Bill(lines, {"refs": refs, "chars": chars, "tokens": tokens})
