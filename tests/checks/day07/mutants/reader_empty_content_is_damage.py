"""E3: the reader also validates message events, with truthiness: a message needs a
role *and* content (`if not message.get("content")`), otherwise it is "damaged".

A message with empty content is a perfectly good message: a real model that only
asks for tools usually sends no text at all (the agent logs `content: ""`), and a
tool can return an empty result. Such a log is clean, but this reader stops at that
line and drops everything after it - resume then continues from a stale point.
Reading rejects only what the contract names (not an object, a missing seq/ts/type,
a seq out of order, a torn last line).
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops", "fork-points", "torn-tail", "unknown-type-tolerated")
MAYBE = ("damaged-then-continue", "missing-line")  # fails them on some generated inputs only

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
            if not (data.get("seq") and data.get("ts") and data.get("type")):
                return ReadResult(events, line_number, "missing seq, ts or type")
            seq = data.pop("seq")
            if type(seq) is not int or seq != previous_seq + 1:
                return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
            kind = data.pop("type")
            if kind == "message":
                message = data.get("message")
                if not isinstance(message, dict) or not message.get("role") or not message.get("content"):
                    return ReadResult(events, line_number, "message without role or content")
            events.append(Event(seq, data.pop("ts"), kind, data))
            previous_seq = seq
    return ReadResult(events)
