"""E3: the reader finds a torn last line, reports it correctly - and then "repairs"
the log by truncating it back to the last complete line, so the next append starts
on a clean line (what etcd's Repair does).

Reading must never change the file: the damaged log stays byte-identical for the
user to inspect, and new events go into a recovery fork, not after the cut.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail", "damaged-then-continue")

import json


def read_events(path):
    events = []
    previous_seq = 0
    good_bytes = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                result = ReadResult(events, line_number, "last line incomplete")
                break
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
            good_bytes += len(raw)
        else:
            return ReadResult(events)
    os.truncate(path, good_bytes)
    return result
