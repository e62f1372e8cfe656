"""E3: the reader strips each line and skips the empty ones ("a stray newline is
harmless"), checking everything else by the rules.

A blank line is not a JSON object: appending never writes one, so it means something
else touched the file, and reading must stop there with its line number. Skipping it
reads on past damage (the lines after it keep their seq order, so the seq check does
not catch it either).
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
            line = raw.strip()
            if not line:
                continue
            try:
                data = json.loads(line.decode("utf-8"))
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
