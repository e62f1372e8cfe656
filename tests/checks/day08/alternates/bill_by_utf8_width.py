"""A correct E3 written differently: a character is wide when it takes three or more
bytes in UTF-8 (the same as U+0800 and above), math.ceil for the quarter, and the lines
built from the event's own figures."""
TARGET = "mca/refs/bill.py"
FAILS = ()

import math


def estimate_tokens(text):
    wide = sum(len(ch.encode("utf-8", "surrogatepass")) >= 3 for ch in text)
    return math.ceil((len(text) - wide) / 4) + wide


def bill(injections):
    refs = [{"ref": i.ref, "kind": i.kind, "chars": len(i.sent), "tokens": estimate_tokens(i.sent),
             "truncated": i.truncated} for i in injections if i.note is None]
    if not refs:
        return Bill()
    event = {"refs": refs, "chars": sum(r["chars"] for r in refs), "tokens": sum(r["tokens"] for r in refs)}
    lines = [f"injected: {r['ref']} {r['chars']} chars ≈ {r['tokens']} tokens" + (" (cut)" if r["truncated"] else "")
             for r in refs]
    lines.append(f"injected: total {len(refs)} {'ref' if len(refs) == 1 else 'refs'}, "
                 f"{event['chars']} chars ≈ {event['tokens']} tokens")
    return Bill(lines, event)
