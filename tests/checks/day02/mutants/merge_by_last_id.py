"""E2: calls are kept by id; a fragment without an id belongs to the call whose id came last.

The trap in other clothes (Qwen-Agent#943: merged by the last id). With one call it is
right; when two calls interleave (0, 1, 0, 1) the fragments of call 0 that arrive after
call 1 started are glued onto call 1.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("two-calls-interleaved",)


def merge_chunk(pieces, chunk):
    if chunk.id:
        pieces[len(pieces)] = {"id": chunk.id, "name": chunk.name, "args": [chunk.args]}
        return
    last = max(pieces) if pieces else None
    if last is None:
        pieces[0] = {"id": None, "name": chunk.name, "args": [chunk.args]}
    else:
        pieces[last]["args"].append(chunk.args)
