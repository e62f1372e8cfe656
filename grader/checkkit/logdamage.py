"""Damaged copies of a generated log, each with what a correct reader must report.

The contract's reading rule: stop at the first bad line, report its number, return the
events before it and nothing after. Every damage here is placed in one line, so for
every `Damaged` the right answer is `stopped_at` plus the first `expected_events` events
of the log it came from (`Damaged.events`). A seq gap (a line removed from the middle)
stops reading at the line after the hole, whose seq jumped.

The source log is never changed: each function returns new bytes.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path

from .messages import kit_say
from .loggen import Event, GeneratedLog, encode

BAD_LINE_KINDS = ("bad-json", "blank", "not-object", "missing-seq", "missing-ts", "missing-type",
                  "repeated-seq", "lower-seq", "seq-gap", "bad-utf8", "trailing-garbage", "seq-not-int",
                  "raw-control")
TAIL_KINDS = ("torn", "torn-in-char", "no-newline")


@dataclass(frozen=True)
class Damaged:
    """Damaged log bytes and the answer: reading stops at line `stopped_at` and returns
    `expected_events` events. `description` is a noun phrase for failure messages
    ("a log with line 5 without its ts ...")."""

    data: bytes
    stopped_at: int
    expected_events: int
    kind: str
    description: str
    source: GeneratedLog

    @property
    def session_id(self) -> str:
        return self.source.session_id

    @property
    def events(self) -> list[Event]:
        """The events a correct reader returns: the source's first `expected_events`."""
        return copy.deepcopy(self.source.events[: self.expected_events])

    def write(self, sessions_dir: Path | str) -> Path:
        """Write the damaged bytes under the source's id and return the path."""
        path = Path(sessions_dir) / self.source.file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self.data)
        return path


def _continuation(byte: int) -> bool:
    """A UTF-8 byte that is not the start of a character (10xxxxxx)."""
    return 0x80 <= byte <= 0xBF


def _numbered(log: GeneratedLog) -> None:
    # Generated logs have seq == line number; the arithmetic below relies on it.
    if [e["seq"] for e in log.events] != list(range(1, len(log.lines) + 1)):
        raise ValueError(f"{log.session_id}: seqs are not the line numbers")


def torn_tail(log: GeneratedLog, rng: random.Random, *, inside_char: bool | None = None) -> Damaged:
    """The file cut at a random byte strictly inside its last line, as a writer killed
    mid-write leaves it: at least one byte of the line kept, at least `}` and `\\n` lost.

    `inside_char=True` cuts between the bytes of one multi-byte character (the cut line
    is not valid UTF-8), `False` at a character boundary, `None` either (rng's choice).
    """
    _numbered(log)
    last, n = log.lines[-1], len(log.lines)
    inside = [k for k in range(1, len(last) - 1) if _continuation(last[k])]  # keep k bytes
    between = [k for k in range(1, len(last) - 1) if not _continuation(last[k])]
    if inside_char is None:
        inside_char = bool(inside) and rng.random() < 0.5
    if inside_char and not inside:
        raise ValueError(f"the last line of {log.session_id} holds no multi-byte character to cut inside")
    keep = rng.choice(inside if inside_char else between)
    where = kit_say("damage.inside_char") if inside_char else kit_say("damage.after_bytes", keep=keep,
                                                                        size=len(last))
    return Damaged(b"".join(log.lines[:-1]) + last[:keep], n, n - 1,
                   "torn-in-char" if inside_char else "torn", kit_say("damage.torn", line=n, where=where), log)


def no_newline(log: GeneratedLog) -> Damaged:
    """Only the final `\\n` missing: the last line parses, but its write may not have
    finished, so it is torn all the same."""
    _numbered(log)
    n = len(log.lines)
    return Damaged(log.data[:-1], n, n - 1, "no-newline", kit_say("damage.no_newline", line=n), log)


def _lowest_line(kind: str) -> int:
    """A seq lower than the previous one (and at least 1) needs a previous seq of 2 or more."""
    return 3 if kind == "lower-seq" else 2


def _fits(log: GeneratedLog, kind: str) -> bool:
    return _lowest_line(kind) <= len(log.lines) - 1


def bad_middle_line(log: GeneratedLog, rng: random.Random, kind: str) -> Damaged:
    """One bad line of `kind` (see BAD_LINE_KINDS) at a random line that is neither the
    first nor the last, so there are good events before it and after it."""
    _numbered(log)
    if kind not in BAD_LINE_KINDS:
        raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(BAD_LINE_KINDS)}")
    n = len(log.lines)
    if not _fits(log, kind):
        raise ValueError(f"{log.session_id} has too few lines for a bad middle line of kind {kind}")
    m = rng.randint(_lowest_line(kind), n - 1)  # the bad line's number
    i = m - 1
    lines = list(log.lines)
    event = copy.deepcopy(log.events[i])
    if kind == "bad-json":
        # Cut short at a character boundary and terminated: a torn line with lines after
        # it (a spliced file). It is invalid JSON (the closing brace is gone), valid UTF-8.
        cut = rng.choice([k for k in range(1, len(lines[i]) - 1) if not _continuation(lines[i][k])])
        lines[i] = lines[i][:cut] + b"\n"
        description = kit_say("damage.bad_json", line=m, cut=cut)
    elif kind == "blank":
        lines.insert(i, b"\n")
        description = kit_say("damage.blank", line=m)
    elif kind == "not-object":
        # The event wrapped in an array, its seq alone, or the event serialised twice.
        name, value = rng.choice((("array", [event]), ("number", event["seq"]),
                                  ("string", json.dumps(event, ensure_ascii=False))))
        lines[i] = (json.dumps(value, ensure_ascii=False) + "\n").encode("utf-8")
        description = kit_say("damage.not_object", line=m, holding=kit_say(f"damage.a_{name}"))
    elif kind.startswith("missing-"):
        key = kind.removeprefix("missing-")
        del event[key]
        lines[i] = encode(event)
        description = kit_say("damage.missing", line=m, key=key)
    elif kind == "bad-utf8":
        # A byte no UTF-8 text has, inside a string value: a flipped bit on disk, or a
        # writer that was not writing UTF-8. Everything else about the line is fine.
        at = lines[i].index(b'"type": "') + len(b'"type": "') if b'"type": "' in lines[i] else 1
        lines[i] = lines[i][:at] + b"\xff" + lines[i][at:]
        description = kit_say("damage.bad_utf8", line=m)
    elif kind == "trailing-garbage":
        # A whole JSON object, then more on the same line: two writes glued together.
        lines[i] = lines[i][:-1] + rng.choice((b" {", b"x", b' {"seq": 0}', b",")) + b"\n"
        description = kit_say("damage.trailing", line=m)
    elif kind == "seq-not-int":
        # The right number in the wrong type: a string, a float or a bool. Coercing it
        # with int() would accept a line no writer of this log produced.
        event["seq"] = rng.choice((str(m), float(m), f" {m}"))
        lines[i] = encode(event)
        description = kit_say("damage.seq_not_int", line=m, seq=json.dumps(event["seq"]))
    elif kind == "raw-control":
        # A raw control character (TAB, CR, ...) inside a string: JSON allows them only
        # escaped, and json.dumps always escapes them, so only a foreign writer puts one.
        char = rng.choice(("\t", "\r", "\x01", "\x1f"))
        marked = {**event, "note": f"a{char}b"}  # a field of its own: every event type can carry it
        escaped = json.dumps(char)[1:-1].encode("ascii")  # \t, \r, \u0001, \u001f
        lines[i] = encode(marked).replace(b"a" + escaped + b"b", b"a" + char.encode("ascii") + b"b", 1)
        description = kit_say("damage.raw_control", line=m, char=repr(char))
    elif kind == "repeated-seq":
        event["seq"] = m - 1
        lines[i] = encode(event)
        description = kit_say("damage.repeated_seq", line=m, previous=m - 1)
    elif kind == "lower-seq":
        event["seq"] = rng.randint(1, m - 2)
        lines[i] = encode(event)
        description = kit_say("damage.lower_seq", line=m, seq=event["seq"], previous=m - 1)
    else:  # seq-gap: line m removed; the line now numbered m holds seq m + 1
        del lines[i]
        description = kit_say("damage.seq_gap", line=m, next=m + 1, previous=m - 1)
    return Damaged(b"".join(lines), m, m - 1, kind, description, log)


def blank_last_line(log: GeneratedLog) -> Damaged:
    """One empty line after the last event (an editor's or `echo >>`'s final newline).
    It is complete but not a JSON object, so reading stops there; treating it as the end
    of the file would let new events go after it, where no reader can reach them."""
    _numbered(log)
    n = len(log.lines)
    return Damaged(log.data + b"\n", n + 1, n, "blank-last", kit_say("damage.blank_last", line=n + 1),
                   log)


def first_line_seq(log: GeneratedLog, rng: random.Random) -> Damaged:
    """The first line with a seq other than 1 (a file that starts in the middle of another
    session): reading stops at line 1 and returns nothing."""
    _numbered(log)
    event = copy.deepcopy(log.events[0])
    event["seq"] = rng.choice((0, 2, rng.randint(3, 99)))
    data = encode(event) + b"".join(log.lines[1:])
    return Damaged(data, 1, 0, "first-seq", kit_say("damage.first_seq", seq=event["seq"]), log)


def every_damage(log: GeneratedLog, rng: random.Random) -> list[Damaged]:
    """One damaged copy per kind: the three tails (the in-character cut when the last
    line has a multi-byte character) and every bad middle line the log is long enough
    for (a 3-line fork child has no room for a lower seq)."""
    tails = [torn_tail(log, rng, inside_char=False), no_newline(log)]
    if any(_continuation(b) for b in log.lines[-1]):
        tails.insert(1, torn_tail(log, rng, inside_char=True))
    return tails + [bad_middle_line(log, rng, kind) for kind in BAD_LINE_KINDS if _fits(log, kind)]
