"""E3: the reader parses each line with `json.JSONDecoder().raw_decode`, which reads
one JSON value from the start of the text and returns where it ended - and ignores
whatever comes after it.

A line holding a complete object followed by more bytes (`{...} garbage`, or two
objects glued together `{...}{...}` when a second writer's line lands on the same
line) is not a JSON object line: it is damage, and reading must stop there. This
reader takes the first object and reads on.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)

import json


def read_events(path):
    events = []
    previous_seq = 0
    decoder = json.JSONDecoder()
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            try:
                data, _end = decoder.raw_decode(raw.decode("utf-8").lstrip(" \t"))
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
