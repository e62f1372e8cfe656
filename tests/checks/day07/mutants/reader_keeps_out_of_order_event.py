"""E3: the reader appends each parsed event first and checks its seq afterwards, so
when the seq is repeated, lower or skips ahead it stops with the right line number -
but the bad event is already in the list it returns.

"Nothing after it is returned" includes the bad line itself: an event with a
repeated seq comes from a second writer or a splice, and one after a gap may answer
a message that is gone. Resume would replay it.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)

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
            kind = data.pop("type")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, data.pop("ts"), kind, data))
            if type(seq) is not int or seq != previous_seq + 1:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            previous_seq = seq
    return ReadResult(events)
