r"""A correct E3 written differently: the log is mapped into memory (mmap) and cut
into lines with `find(b"\n")`; each complete line is decoded and checked on its own,
so a torn tail - even one that ends inside a multi-byte character - is only "last
line incomplete". Checks seq == previous + 1 itself (a gap stops reading). An empty
file (which mmap cannot map) is a clean, empty log.
"""
TARGETS = {"read_events": "mca/session/log.py", "_mmap_event": "mca/session/log.py"}
ADD = ("_mmap_event",)
FAILS = ()

import json
import mmap


def read_events(path):
    events = []
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            return ReadResult(events)
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
            start, number, size = 0, 0, len(view)
            while start < size:
                number += 1
                end = view.find(b"\n", start)
                if end < 0:
                    return ReadResult(events, number, "last line incomplete")
                event, problem = _mmap_event(view[start:end], events[-1].seq if events else 0)
                if problem:
                    return ReadResult(events, number, problem)
                events.append(event)
                start = end + 1
    return ReadResult(events)


def _mmap_event(line, previous):
    """One complete line (without its newline) as an Event, or (None, why not)."""
    try:
        data = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None, "not valid JSON (or not UTF-8)"
    if not isinstance(data, dict):
        return None, "not a JSON object"
    missing = [name for name in ("seq", "ts", "type") if name not in data]
    if missing:
        return None, "missing " + " and ".join(missing)
    seq = data.pop("seq")
    if type(seq) is not int or seq != previous + 1:
        return None, f"expected seq {previous + 1}, found {seq!r}"
    ts, kind = data.pop("ts"), data.pop("type")
    if kind == "message" and not _is_message(data.get("message")):
        return None, "a message event without a message"
    return Event(seq, ts, kind, data), None
