"""A correct E3 written differently: each complete line is parsed with
`json.JSONDecoder().raw_decode`, skipping JSON whitespace first and insisting that
nothing but JSON whitespace follows the object (what `json.loads` does inside), so
`{...} garbage` and two glued objects are bad lines. The torn-tail test is on the
raw bytes before any decoding; seq must be previous + 1.
"""
TARGET = "mca/session/log.py"
FAILS = ()

import json
import re


def read_events(path):
    decoder = json.JSONDecoder()
    space = re.compile(r"[ \t\n\r]*")
    events = []
    expected = 1
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            if raw[-1:] != b"\n":
                return ReadResult(events, number, "last line incomplete")
            try:
                text = raw.decode("utf-8")
                data, end = decoder.raw_decode(text, space.match(text).end())
            except (ValueError, RecursionError):
                return ReadResult(events, number, "line is not JSON")
            if space.match(text, end).end() != len(text):
                return ReadResult(events, number, "extra data after the JSON object")
            if not isinstance(data, dict):
                return ReadResult(events, number, "line is not a JSON object")
            if not {"seq", "ts", "type"} <= data.keys():
                return ReadResult(events, number, "seq, ts or type is missing")
            fields = dict(data)
            seq, ts, kind = fields.pop("seq"), fields.pop("ts"), fields.pop("type")
            if type(seq) is not int or seq != expected:
                return ReadResult(events, number, f"seq {seq!r} where {expected} was due")
            if kind == "message" and not _is_message(fields.get("message")):
                return ReadResult(events, number, "message event without a message")
            events.append(Event(seq, ts, kind, fields))
            expected += 1
    return ReadResult(events)
