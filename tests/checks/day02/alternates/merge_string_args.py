"""A correct E2 written differently: an explicit lookup by index, the arguments kept as one
growing string (finish_call joins any iterable of str, and a str is one).
"""
TARGET = "mca/agent/loop.py"
FAILS = ()


def merge_chunk(pieces, chunk):
    if chunk.index not in pieces:
        pieces[chunk.index] = {"id": None, "name": None, "args": ""}
    piece = pieces[chunk.index]
    if chunk.id and not piece["id"]:
        piece["id"] = chunk.id
    if chunk.name and not piece["name"]:
        piece["name"] = chunk.name
    piece["args"] += chunk.args
