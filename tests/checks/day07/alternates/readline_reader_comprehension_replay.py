"""A correct E2 and E3 written differently from the reference: the reader pulls
lines with readline(), validates inline and words its reasons its own way; replay
is two comprehensions."""
TARGETS = {"read_events": "mca/session/log.py", "replay": "mca/session/replay.py"}
FAILS = ()

import json


def read_events(path):
    kept = []
    last = None
    with open(path, "rb") as stream:
        number = 0
        while True:
            raw = stream.readline()
            if raw == b"":
                break
            number += 1
            if raw[-1:] != b"\n":
                return ReadResult(kept, number, "torn final line (no newline)")
            try:
                obj = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                return ReadResult(kept, number, "garbage, not JSON")
            if type(obj) is not dict or not {"seq", "ts", "type"} <= obj.keys():
                return ReadResult(kept, number, "not an event record")
            if type(obj["seq"]) is not int or obj["seq"] != (last or 0) + 1:
                return ReadResult(kept, number, "sequence number is not the next one")
            last = obj["seq"]
            rest = {k: v for k, v in obj.items() if k not in ("seq", "ts", "type")}
            kept.append(Event(obj["seq"], obj["ts"], obj["type"], rest))
    return ReadResult(kept)


def replay(events):
    events = list(events)
    messages = [e.fields["message"] for e in events if e.type == "message"]
    return Replayed(messages, len(messages), sum(1 for e in events if e.type != "message"))
