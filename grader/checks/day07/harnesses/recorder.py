"""Grader harness: feed the lab's SessionRecorder one agent event at a time and look
at the log after each `handle` returns.

    python recorder.py LAB JOB.json     (the prelude takes LAB)

JOB is {"sessions": DIR, "events": [{"kind": "MessageAdded", ...}, ...]}. The log is
opened with the provided SessionLog.create. Every os.write on the log's file is
counted and stamped with the step it happened in, so a line written after `handle`
returned (a thread, a buffer) is seen for what it is, however fast it was. One JSON
object per step goes to stdout, then one for end_turn.
"""
import json
import os
import sys
import traceback
from pathlib import Path

from mca.agent import events as agent_events
from mca.session.log import SessionLog
from mca.session.recorder import SessionRecorder

job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
log = SessionLog.create(Path(job["sessions"]))
log_fd = log._fd
state = {"step": None, "writes": []}  # (step or None, bytes) of every write on the log's file
real_write = os.write


def counting_write(fd, data):
    if fd == log_fd:
        state["writes"].append(state["step"])
    return real_write(fd, data)


os.write = counting_write


def failure(exc):
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(frames[-1].filename).name}, line {frames[-1].lineno}" if frames else "?"
    kind = "stub" if isinstance(exc, NotImplementedError) else "raised"
    return {kind: f"{type(exc).__name__}: {exc}", "where": where}


def look(step):
    data = log.path.read_bytes()
    return {"step": step, "lines": data.count(b"\n"), "complete": data.endswith(b"\n") or not data,
            "last": data.splitlines()[-1].decode("utf-8", "replace") if data.strip() else None,
            "writes": sum(1 for s in state["writes"] if s == step),
            "late": sum(1 for s in state["writes"] if s is None)}


try:
    recorder = SessionRecorder(log)
except BaseException as exc:
    print(json.dumps({"step": -1, **failure(exc)}), flush=True)
    sys.exit(0)
for step, spec in enumerate(job["events"]):
    spec = dict(spec)
    event = getattr(agent_events, spec.pop("kind"))(**spec)
    state["step"] = step
    try:
        recorder.handle(event)
        outcome = {}
    except BaseException as exc:
        outcome = failure(exc)
    state["step"] = None
    print(json.dumps({**look(step), **outcome}, ensure_ascii=False), flush=True)
state["step"] = "end"
try:
    recorder.end_turn()
    outcome = {}
except BaseException as exc:
    outcome = failure(exc)
state["step"] = None
print(json.dumps({**look("end"), **outcome}, ensure_ascii=False), flush=True)
