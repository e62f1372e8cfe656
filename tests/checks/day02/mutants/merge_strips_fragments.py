"""E2: by index, tidying each fragment with `.strip()` before appending it.

Whitespace between JSON tokens does not matter, so it looks harmless; but a fragment
may start or end next to a space inside a string value, and that space is part of
the argument.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("one-call-merged", "two-calls-interleaved")


def merge_chunk(pieces, chunk):
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"].append(chunk.args.strip())
