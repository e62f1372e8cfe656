"""E2: keeps the calls in slots numbered by first arrival, each slot remembering its index.

Fragments find their call by index, so every call's arguments are right; but the calls
come out in the order they first appeared. When the call of index 1 starts first, the
calls are shown, sent back and answered in the wrong order.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("two-calls-interleaved",)


def merge_chunk(pieces, chunk):
    slot = next((k for k, p in pieces.items() if p["index"] == chunk.index), len(pieces))
    piece = pieces.setdefault(slot, {"index": chunk.index, "id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"].append(chunk.args)
