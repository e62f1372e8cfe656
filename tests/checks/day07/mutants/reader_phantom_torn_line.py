r"""E3: the reader splits the file's bytes on b"\n" and treats every piece as a line
that must be followed by a newline - including the empty piece after the final
newline of a clean file.

So every clean log "stops at line N+1: last line incomplete": a log that is fine is
reported as damaged (and resume would move every session into a recovery fork). A
clean log must read as clean; only a non-empty tail without its newline is torn.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail", "unknown-type-tolerated", "damaged-then-continue")

import json


def read_events(path):
    events = []
    previous_seq = 0
    pieces = Path(path).read_bytes().split(b"\n")
    for index, raw in enumerate(pieces):
        line_number = index + 1
        if index == len(pieces) - 1:
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
