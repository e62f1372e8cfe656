"""A correct E2 written differently: slots numbered by first arrival, each remembering its
index; a fragment finds its slot by index. Providers open a reply's calls in index order
(index 0 first, whether the fragments come one call after the other or interleaved), so the
slots are in index order too.
"""
TARGET = "mca/agent/loop.py"
FAILS = ()


def merge_chunk(pieces, chunk):
    slot = next((k for k, p in pieces.items() if p["index"] == chunk.index), len(pieces))
    piece = pieces.setdefault(slot, {"index": chunk.index, "id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"].append(chunk.args)
