"""E2: by index; the fragment that brings the id opens the call with empty arguments,
and only the later fragments add to them.

Fine for the mock, whose first fragment carries no arguments; providers often put
the start of the arguments, or all of them (vercel/ai#2881), in the first fragment.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("one-call-merged", "two-calls-interleaved")


def merge_chunk(pieces, chunk):
    if chunk.id:
        pieces[chunk.index] = {"id": chunk.id, "name": chunk.name, "args": []}
    else:
        pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})["args"].append(chunk.args)
