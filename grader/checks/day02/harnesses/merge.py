"""Grader harness: merge streamed tool-call fragments with the lab's merge_chunk.

    python merge.py LAB JOB.json     (the prelude takes LAB)

JOB is {"cases": [[chunk, ...], ...]}: each case is the provider's chunks of one
streamed reply, as a server sends them. The provided deltas_of turns each chunk into
StreamDeltas; every tool-call piece goes to merge_chunk, exactly as collect does; then
the provided finish_call makes each call, in index order. Only merge_chunk is the
student's, so a mistake elsewhere (collect, the SSE reader) cannot show up here.
One JSON object per case goes to stdout.
"""
import json
import sys
import traceback
from pathlib import Path


def failure(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    lab = [f for f in frames if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(lab[-1].filename).name}, line {lab[-1].lineno}" if lab else "?"
    return {"stub" if isinstance(exc, NotImplementedError) else "raised": f"{type(exc).__name__}: {exc}",
            "where": where}


def plain(value):
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)[:300]


def merge(chunks):
    from mca.agent.loop import finish_call, merge_chunk
    from mca.gateway.openai_compat import deltas_of
    merged = {}
    for chunk in chunks:
        for fragment in (d.tool_call for d in deltas_of(chunk)):
            if fragment is not None:
                merge_chunk(merged, fragment)
    calls = [finish_call(number, merged[number]) for number in sorted(merged)]
    return {"calls": [{"id": plain(c.id), "name": plain(c.name), "args": plain(c.args), "problem": c.problem}
                      for c in calls]}


job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
for case in job["cases"]:
    try:
        answer = merge(case)
    except BaseException as exc:  # the lab's code may raise anything, even SystemExit
        answer = failure(exc)
    print(json.dumps(answer, ensure_ascii=False), flush=True)
