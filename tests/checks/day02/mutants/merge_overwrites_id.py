"""E2: by index, but each fragment sets the call's id: the continuations (no id, or
`"id": ""`) leave it empty, so the call gets a made-up id and its result no longer
answers the call the model made.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("one-call-merged", "two-calls-interleaved")


def merge_chunk(pieces, chunk):
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})
    piece["id"] = chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"].append(chunk.args)
