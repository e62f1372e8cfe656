"""Grader harness: merge streamed tool-call fragments with the lab's merge_chunk.

    python merge.py LAB JOB.json     (the prelude takes LAB)

JOB is {"cases": [[chunk, ...], ...]}: each case is the provider's chunks of one
streamed reply, as a server sends them. The provided deltas_of turns each chunk into
StreamDeltas; every tool-call piece goes to merge_chunk, exactly as collect does; then
the provided finish_call makes each call, in index order. Only merge_chunk is the
student's, so a mistake elsewhere (collect, the SSE reader) cannot show up here.
One answer per case.
"""
from harnesskit import answer, plain, report, run


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


run(lambda job: [report(answer(merge, case)) for case in job["cases"]])
