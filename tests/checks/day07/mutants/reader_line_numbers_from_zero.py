"""E3: the reader is right in every rule but counts lines from 0 (`enumerate(handle)`
without `start=1`), so every reported line number is one too small: a log torn at
line 8 "stopped at line 7", and the user inspects the wrong line.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail", "bad-line-stops", "missing-line", "damaged-then-continue")

import json


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle):
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
            if type(seq) is not int or seq != previous_seq + 1:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            kind = data.pop("type")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, data.pop("ts"), kind, data))
            previous_seq = seq
    return ReadResult(events)
