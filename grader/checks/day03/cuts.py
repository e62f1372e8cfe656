"""Day 03: what a truncated result says about itself, judged against the text it came from.

A result is honest when it is no longer than the limit, keeps pieces of the original
(its start, its end) and says how much is missing of how much: the original size and
either the part cut or the part kept. It is laid out as the sheet asks - the start, the
note, the end - and it uses the room it is given: its two ends hold the limit but for
NOTE_ROOM characters of note and, for a cut at line ends, a line at each end. The texts the checks cut hold no digit, so every
number in a result is the marker's own. Counts may be in characters (what the limit
counts) or in lines; a few characters of slack cover a newline the marker shares with
the text around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

NUMBER = re.compile(r"\d[\d,_]*")
SLACK_CHARS = 3
SLACK_LINES = 1
PROBE = 40  # characters of the start (or the end) that locate it in a result: too long to recur by chance
NOTE_ROOM = 200  # characters a note may take of the limit; the rest is the text's start and end


@dataclass(frozen=True)
class Kept:
    head: int   # characters of the original at the start of the result
    tail: int   # characters of the original at the end of the result
    numbers: tuple[int, ...]

    @property
    def kept(self) -> int:
        return self.head + self.tail


def kept_of(text: str, result: str) -> Kept:
    """How much of `text`'s start and of its end `result` holds, and the numbers `result` holds.

    The start and the end are looked for where they usually are (the result's own start
    and end), and else anywhere in it, so a note put first or last is measured as well.
    """
    head = _kept_from_start(text, result)
    tail = min(_kept_from_start(text[::-1], result[::-1]), len(text) - head)
    numbers = tuple(int(n.replace(",", "").replace("_", "")) for n in NUMBER.findall(result))
    return Kept(head, tail, numbers)


def _kept_from_start(text: str, result: str) -> int:
    """The longest run of `text`'s start that `result` holds: at its own start, or where the
    first PROBE characters of `text` appear (after a note put first)."""
    elsewhere = result.find(text[:PROBE]) if len(text) >= PROBE else -1
    return max(_run(text, result, 0), _run(text, result, elsewhere))


def _run(text: str, result: str, at: int) -> int:
    """How many characters of `text`, from its start, `result` holds from position `at` on."""
    if at < 0:
        return 0
    count = 0
    for a, b in zip(text, result[at:]):
        if a != b:
            break
        count += 1
    return count


def at_the_ends(text: str, result: str) -> tuple[int, int]:
    """(characters of `text`'s start at `result`'s own start, of its end at `result`'s own end):
    where the sheet puts them, with the note between."""
    head = _run(text, result, 0)
    return head, min(_run(text[::-1], result[::-1], 0), len(text) - head)


def room_needed(text: str, limit: int) -> int:
    """The least a result cut to `limit` must keep of `text` at its two ends: the limit, less
    NOTE_ROOM for the note and less a longest line at each end (a cut at line ends keeps
    whole lines only)."""
    longest = max((len(line) + 1 for line in text.split("\n")), default=0)
    return limit - NOTE_ROOM - 2 * longest


def line_count(text: str) -> int:
    return len(text.splitlines())


def declares(text: str, result: str) -> bool:
    """Whether `result` states the original size and how much of it was cut (or kept)."""
    kept = kept_of(text, result)
    chars = (len(text), len(text) - kept.kept, kept.kept, SLACK_CHARS)
    kept_lines = line_count(text[:kept.head]) + line_count(text[len(text) - kept.tail:]) if kept.tail \
        else line_count(text[:kept.head])
    lines = (line_count(text), line_count(text) - kept_lines, kept_lines, SLACK_LINES + 1)
    return any(_states(kept.numbers, *unit) for unit in (chars, lines))


def _states(numbers: tuple[int, ...], total: int, cut: int, kept: int, slack: int) -> bool:
    if total not in numbers:
        return False
    others = list(numbers)
    others.remove(total)
    near = lambda value, target: abs(value - target) <= slack  # noqa: E731
    if any(near(n, cut) or near(n, kept) for n in others):
        return True
    return any(near(a + b, kept) or near(a + b, cut) for a, b in combinations(others, 2))


def whole_lines(result: str) -> list[str]:
    return result.split("\n")
