"""E3: the reader wraps `json.loads` in `except json.JSONDecodeError` and then uses
the result as a dict (`data.get("seq")`).

A line that is valid JSON but not an object (`[1, 2]`, `"text"`, `42`, `null`)
parses fine and then crashes the reader with AttributeError; a line with invalid
UTF-8 crashes it with UnicodeDecodeError (not a JSONDecodeError). Every bad line
must stop reading with its number and a reason, never raise.
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
            except json.JSONDecodeError:
                return ReadResult(events, line_number, "not valid JSON")
            seq, ts, kind = data.get("seq"), data.get("ts"), data.get("type")
            if seq is None or ts is None or kind is None:
                return ReadResult(events, line_number, "missing seq, ts or type")
            if type(seq) is not int or seq != previous_seq + 1:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            fields = {k: v for k, v in data.items() if k not in REQUIRED_FIELDS}
            if kind == "message" and not _is_message(fields.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, ts, kind, fields))
            previous_seq = seq
    return ReadResult(events)
