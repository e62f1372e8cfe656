"""E3: the reader checks "previous + 1" only from the second line on: the first
line's seq is taken as the starting point, whatever it is ("a log may start
anywhere").

Every log starts at seq 1 (a fork copies its parent's lines from 1 too). A log whose
first line is missing, or that is the tail of another log spliced in, starts at some
other seq and must stop at line 1; this reader returns all of it as a clean session
whose events no longer mean what the seq numbers say.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)

import json


def read_events(path):
    events = []
    previous_seq = None
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
            if type(seq) is not int or (previous_seq is not None and seq != previous_seq + 1):
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            kind = data.pop("type")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, data.pop("ts"), kind, data))
            previous_seq = seq
    return ReadResult(events)
