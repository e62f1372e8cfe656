"""E2: by index, but the arguments of each fragment replace those before
(`piece["args"] = [chunk.args]`): only the last fragment's text is left, which is
not valid JSON on its own.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("one-call-merged", "two-calls-interleaved")


def merge_chunk(pieces, chunk):
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"] = [chunk.args]
