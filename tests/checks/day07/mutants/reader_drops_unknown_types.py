"""E3: the reader knows old code must not choke on new event types, so it drops an
event whose type it does not know (`continue`) instead of failing - before it
updates the previous seq.

Two faults in one line: the unknown event is not kept (the contract keeps it; it
only does not rebuild messages), and because the previous seq stays behind, the
next line looks like a seq gap and reading stops there as if the log were damaged.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail", "unknown-type-tolerated")
MAYBE = ("bad-line-stops",)  # fails them on some generated inputs only

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
            if data["type"] not in KNOWN_TYPES:
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
