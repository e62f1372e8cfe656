r"""E3: the reader reports a last line without its newline as torn - and, when that
line still parses ("nothing is lost, only the newline"), keeps its event too.

A last line without `\n` is torn even if it parses: the writer died before it
finished, and an append after it would be glued onto it. Reading returns exactly the
complete events before it.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail",)

import json


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            torn = not raw.endswith(b"\n")
            try:
                data = json.loads(raw.decode("utf-8"))
            except ValueError:
                reason = "last line incomplete" if torn else "not valid JSON"
                return ReadResult(events, line_number, reason)
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
            if torn:
                return ReadResult(events, line_number, "last line incomplete")
            previous_seq = seq
    return ReadResult(events)
