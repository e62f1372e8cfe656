"""E2: by index, parsing the arguments as soon as they arrive and merging the dicts.

A fragment is a piece of JSON text, not JSON: `json.loads` of `{"path": "a` raises.
The arguments can only be parsed once every fragment is joined. The mock's "read PATH"
reply streams its call in fragments too, so even no-doubled-text's one-shot crashes.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("no-doubled-text", "one-call-merged", "two-calls-interleaved", "usage-reported")


def merge_chunk(pieces, chunk):
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": [], "parsed": {}})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    if chunk.args:
        piece["parsed"].update(json.loads(chunk.args))
        piece["args"] = [json.dumps(piece["parsed"])]
