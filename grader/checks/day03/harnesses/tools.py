"""Grader harness: the lab's tools, one call at a time, as the loop's provided code runs them.

    python tools.py LAB JOB.json     (the prelude takes LAB)

JOB is {"workdir": DIR, "ops": [...]}, each op one of:

* {"op": "call", "id", "name", "args"} or {"op": "call", "id", "name", "raw"}: one tool
  call through the provided run_call (a "raw" argument text goes through the provided
  finish_call first, as a streamed call does); the answer holds the messages run_call
  added to the history and what its ToolFinished event said. Only the registry, the
  tools and the path and truncation helpers under them are the student's: the loop
  (E1) is not involved.
* {"op": "tool", "name", "args"}: the tool itself (file_tools), without the registry
  around it: what list_dir and grep give, apart from the registry's checks and cuts.
* {"op": "truncate", "text", "limit"}: truncate(text, limit) itself.
* {"op": "tools"}: the registry default_tools(workdir) builds: names, read-only marks
  and the schemas offered to the model.

One answer per op.
"""
from pathlib import Path

from harnesskit import answer, plain, report, run


def call(workdir, op):
    from mca.agent.events import ToolFinished
    from mca.agent.loop import ToolCall, finish_call, run_call
    from mca.tools.registry import default_tools
    if "raw" in op:
        tool_call = finish_call(0, {"id": op["id"], "name": op["name"], "args": [op["raw"]]})
    else:
        tool_call = ToolCall(op["id"], op["name"], op["args"])
    history, events = [], []
    run_call(tool_call, default_tools(workdir), history, events.append)
    finished = [e for e in events if isinstance(e, ToolFinished)]
    done = {"ok": finished[-1].ok, "truncated": finished[-1].truncated} if finished else None
    return {"messages": plain(history), "finished": plain(done)}


def direct(workdir, op):
    from mca.tools.files import file_tools
    tool = {t.name: t for t in file_tools(workdir)}[op["name"]]
    return {"text": plain(tool.run(op["args"]))}


def cut(op):
    from mca.tools.truncate import truncate
    answer = truncate(op["text"], op["limit"])
    if not (isinstance(answer, tuple) and len(answer) == 2):
        return {"shape": repr(answer)[:200]}
    return {"text": plain(answer[0]), "truncated": plain(answer[1])}


def tools(workdir):
    from mca.tools.registry import default_tools
    registry = default_tools(workdir)
    names = registry.names()
    return {"names": plain(names),
            "marked": {name: plain(getattr(registry._tools.get(name), "read_only", None)) for name in names},
            "asked": {name: plain(registry.is_read_only(name)) for name in names},
            "unknown": plain(registry.is_read_only("no_such_tool_" + str(len(names)))),
            "schemas": plain(registry.schemas())}


OPS = {"call": call, "tool": direct, "truncate": lambda workdir, op: cut(op), "tools": lambda workdir, op: tools(workdir)}


def main(job):
    workdir = Path(job["workdir"])
    for op in job["ops"]:
        report(answer(OPS.get(op["op"], OPS["tools"]), workdir, op))


run(main)
