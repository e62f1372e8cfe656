"""E3: the reader treats a blank line as the end of the log (`break`), like reading
an HTTP header block: it returns the events before it and reports nothing.

Reading does stop there, but silently: `stopped_at` is None and there is no reason,
so the log looks clean and resume would keep appending after the damage. A blank
line is a bad line; the reader must say where it stopped and why.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)

import json


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if raw.strip() == b"" and raw.endswith(b"\n"):
                break
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
