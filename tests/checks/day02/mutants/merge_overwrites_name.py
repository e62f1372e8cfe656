"""E2: by index, but each fragment sets the call's name (`piece["name"] = chunk.name`).

Only the first fragment brings the name; the later ones carry none, so the last
fragment wipes it out. The same goes for any field that arrives once.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("one-call-merged", "two-calls-interleaved")


def merge_chunk(pieces, chunk):
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = chunk.name
    piece["args"].append(chunk.args)
