r"""E3: the reader opens the log in text mode (`open(path, encoding="utf-8")`) and
checks `line.endswith("\n")` for a torn tail - the usual way to read a text file.

Text mode decodes as it reads, so a last line torn inside a multi-byte UTF-8
character (CJK, emoji) makes the iteration itself raise UnicodeDecodeError before
the reader ever sees the line: a crash instead of "last line incomplete". A damaged
line in the middle holding invalid UTF-8 crashes it the same way instead of stopping
reading there.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops", "damaged-then-continue", "torn-tail")

import json


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, encoding="utf-8") as handle:
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
