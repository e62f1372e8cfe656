"""Day 07: what a lab's answer should have been, and the words for how it differs.

Each function returns None when the answer is right, else a CheckFailed whose
message names the field or the behaviour that is wrong.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from grader.checkkit import CheckFailed, differing, harnessrun, short

from .calls import digest_long, fields_of, odd_value


def _brief(say, message) -> str:
    if not isinstance(message, dict):
        return short(repr(message), 80)
    key = "brief.message_calls" if message.get("tool_calls") else "brief.message"
    return say(key, role=message.get("role"), content=repr(short(str(message.get("content") or ""), 40)))


def messages_differ(say, got, expected: list[dict], where: str) -> str | None:
    """Why `got` is not exactly `expected` (same messages, same order, every field), or None."""
    if odd_value(got):
        return say("replay.not_a_list", seen=odd_value(got))
    if got == expected:
        return None
    if len(got) != len(expected):
        extra = [m for m in got if m not in expected]
        if len(got) > len(expected) and extra:
            return say("replay.extra", count=len(got), expected=len(expected), where=where, first=_brief(say, extra[0]))
        return say("replay.count", count=len(got), expected=len(expected), where=where)
    if sorted(map(json.dumps, got)) == sorted(map(json.dumps, expected)):
        first = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
        return say("replay.order", where=where, index=first + 1, seen=_brief(say, got[first]), expected=_brief(say, expected[first]))
    first = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
    seen, wanted = got[first], expected[first]
    if isinstance(seen, dict):
        missing = sorted(set(wanted) - set(seen))
        if missing:
            return say("replay.field_missing", index=first + 1, message=_brief(say, wanted), field=missing[0], where=where)
        changed = sorted(k for k in wanted if seen.get(k) != wanted[k])
        added = sorted(set(seen) - set(wanted))
        if changed:
            shown, expected_shown = differing(seen.get(changed[0]), wanted[changed[0]], 80)
            return say("replay.field_changed", index=first + 1, message=_brief(say, wanted), field=changed[0],
                       seen=shown, expected=expected_shown, where=where)
        if added:
            return say("replay.field_added", index=first + 1, message=_brief(say, wanted), field=added[0], where=where)
    return say("replay.differs", index=first + 1, where=where, seen=short(repr(seen), 120))


# --------------------------------------------------------------------------- reading

@dataclass
class ReadCase:
    """One log the reader gets: where it is, what it holds, what reading must give."""

    path: Path
    what: str                 # "a clean log", "the last line cut inside a multi-byte character"
    events: list[dict]        # the events a correct reader returns
    stopped_at: int | None

    def stamp(self) -> tuple:
        info = os.stat(self.path)
        return (self.path.read_bytes(), info.st_size, info.st_ino, info.st_mtime_ns)


def read_answer(say, case: ReadCase, answer: dict) -> CheckFailed | None:
    """Judge one answer of read_events on `case` (the whole claim: events, stop line, reason)."""
    problem = harnessrun.problem(say, answer, "read_events()", case.what)
    if problem:
        return problem
    stopped, reason, events = answer.get("stopped_at"), answer.get("reason"), answer.get("events")
    if odd_value(events) or not isinstance(events, list):
        return CheckFailed(say("read.not_events", what=case.what, seen=odd_value(events) or short(repr(events))))
    expected = digest_long([[e["seq"], e["type"], fields_of(e)] for e in case.events])
    if case.stopped_at is None:
        if stopped is not None:
            return CheckFailed(say("read.phantom", what=case.what, lines=len(case.events), line=stopped,
                                   reason=reason), expected=say("brief.stopped_null"), seen=say("brief.stopped_at", line=stopped))
        if events != expected:
            return CheckFailed(say("read.clean_events", what=case.what, lines=len(expected), events=len(events)))
        return None
    if stopped is None:
        return CheckFailed(say("read.stop_silent", line=case.stopped_at, what=case.what, events=len(events)),
                           expected=say("brief.stopped_with_reason", line=case.stopped_at),
                           seen=say("brief.events_not_stopped", events=len(events)))
    if stopped != case.stopped_at:
        return CheckFailed(say("read.stop_elsewhere", line=case.stopped_at, what=case.what, seen_line=stopped,
                               reason=reason))
    if not isinstance(reason, str) or not reason.strip():
        return CheckFailed(say("read.no_reason", line=case.stopped_at, what=case.what))
    if events != expected:
        after = [row for row in events if isinstance(row, list) and row and row[0] not in
                 {e[0] for e in expected}]
        key = "read.events_after" if after else "read.events_wrong"
        return CheckFailed(say(key, expected=len(expected), line=case.stopped_at, what=case.what, events=len(events)))
    return None
