"""E3: the reader checks that seq goes up (`seq <= previous` stops) but not that it
goes up by exactly one.

That catches a repeated or lower seq (two writers, a splice), but a gap - a line
missing from the middle - reads on. What follows a gap may answer a message that is
gone (a tool result whose call was on the missing line), so a gap must stop reading
too: seq must be the one before plus 1.

NOTE for the grader team: the reference's provided `parse_line` (mca/session/log.py)
has exactly this check (`if seq <= previous_seq`), so the reference E3, which relies
on it, misses gaps as well.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops", "missing-line")

import json


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            try:
                data = json.loads(raw.decode("utf-8"))
            except ValueError:
                return ReadResult(events, line_number, "not valid JSON")
            if not isinstance(data, dict):
                return ReadResult(events, line_number, "not a JSON object")
            missing = [name for name in REQUIRED_FIELDS if name not in data]
            if missing:
                return ReadResult(events, line_number, "missing " + ", ".join(missing))
            seq = data.pop("seq")
            if type(seq) is not int or seq <= previous_seq:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            kind = data.pop("type")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, data.pop("ts"), kind, data))
            previous_seq = seq
    return ReadResult(events)
