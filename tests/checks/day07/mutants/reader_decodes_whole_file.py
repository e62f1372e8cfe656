"""E3: the reader decodes the whole file as UTF-8 first ("it is a UTF-8 file, so
read it as text"), then splits it on newlines and checks each line properly.

On a clean log that works. But a log torn while its last line was being written can
end in the middle of a multi-byte character (a CJK character or an emoji is 3-4
bytes), and then decoding the whole file raises UnicodeDecodeError: the reader
crashes instead of reporting "last line incomplete" and returning the complete
events before it. Damage is handled per line, bytes first; only a complete line is
decoded.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops", "damaged-then-continue", "torn-tail")

import json


def read_events(path):
    events = []
    previous_seq = 0
    text = Path(path).read_bytes().decode("utf-8")
    pieces = text.split("\n")
    tail = pieces.pop()  # "" when the file ends with a newline
    for line_number, line in enumerate(pieces, start=1):
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
    if tail:
        return ReadResult(events, len(pieces) + 1, "last line incomplete")
    return ReadResult(events)
