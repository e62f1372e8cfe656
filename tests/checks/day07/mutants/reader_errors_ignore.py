"""E3: the reader knows text mode crashes on a torn multi-byte character, so it
opens the log with `errors="ignore"` - and stops crashing.

The torn tail is now handled (the broken character is dropped, the line still has no
newline). But `errors="ignore"` also silently deletes invalid bytes from complete
lines: a middle line whose bytes were damaged (bit rot, a splice, another program's
write) and that is not valid UTF-8 - so not valid JSON - is cleaned up and read as
an event instead of stopping reading there. The reader is guessing past damage.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)

import json


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, encoding="utf-8", errors="ignore") as handle:
        for line_number, line in enumerate(handle, start=1):
            if not line.endswith("\n"):
                return ReadResult(events, line_number, "last line incomplete")
            try:
                data = json.loads(line)
            except ValueError:
                return ReadResult(events, line_number, "not valid JSON")
            if not isinstance(data, dict):
                return ReadResult(events, line_number, "not a JSON object")
            missing = [name for name in REQUIRED_FIELDS if name not in data]
            if missing:
                return ReadResult(events, line_number, "missing " + ", ".join(missing))
            seq = data.pop("seq")
            if type(seq) is not int or seq != previous_seq + 1:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            kind = data.pop("type")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, data.pop("ts"), kind, data))
            previous_seq = seq
    return ReadResult(events)
