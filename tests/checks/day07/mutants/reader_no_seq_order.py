"""E3: the reader stops at torn, non-JSON and incomplete lines, but never compares
seq with the line before, so a spliced file with a repeated seq reads on."""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops", "missing-line")

import json


def read_events(path):
    events = []
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            try:
                data = json.loads(raw)
            except ValueError:
                return ReadResult(events, line_number, "not valid JSON")
            if not isinstance(data, dict) or any(name not in data for name in REQUIRED_FIELDS):
                return ReadResult(events, line_number, "not an event")
            seq, ts, kind = data.pop("seq"), data.pop("ts"), data.pop("type")
            events.append(Event(seq, ts, kind, data))
    return ReadResult(events)
