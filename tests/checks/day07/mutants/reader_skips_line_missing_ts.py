"""E3: the reader stops at bad JSON and at a line without seq or type, but a line
without `ts` is "only missing a timestamp", so it skips that line (`continue`) and
reads on.

Skipping is never allowed: a line missing a required field is damage and reading
stops there with its number. Here the seq check then trips on the next line (its seq
is two ahead), so the stop is reported one line late with the wrong reason.
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
            if "seq" not in data or "type" not in data:
                return ReadResult(events, line_number, "missing seq or type")
            if "ts" not in data:
                continue
            seq = data.pop("seq")
            if type(seq) is not int or seq != previous_seq + 1:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            kind = data.pop("type")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, line_number, "message event without a valid message object")
            events.append(Event(seq, data.pop("ts"), kind, data))
            previous_seq = seq
    return ReadResult(events)
