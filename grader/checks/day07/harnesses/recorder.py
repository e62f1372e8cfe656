"""Grader harness: feed the lab's SessionRecorder one agent event at a time and look
at the log after each `handle` returns.

    python recorder.py LAB JOB.json     (the prelude takes LAB)

JOB is {"sessions": DIR, "events": [{"kind": "MessageAdded", ...}, ...]}. The log is
opened with the provided SessionLog.create. Every os.write on the log's file is
counted and stamped with the step it happened in, so a line written after `handle`
returned (a thread, a buffer) is seen for what it is, however fast it was. One
answer per step, then one for end_turn.
"""
import os
from pathlib import Path

from harnesskit import answer, report, run


def main(job):
    from mca.agent import events as agent_events
    from mca.session.log import SessionLog
    from mca.session.recorder import SessionRecorder

    log = SessionLog.create(Path(job["sessions"]))
    log_fd = log._fd
    state = {"step": None, "writes": []}  # (step or None, bytes) of every write on the log's file
    real_write = os.write

    def counting_write(fd, data):
        if fd == log_fd:
            state["writes"].append(state["step"])
        return real_write(fd, data)

    os.write = counting_write

    def look(step):
        data = log.path.read_bytes()
        return {"step": step, "lines": data.count(b"\n"), "complete": data.endswith(b"\n") or not data,
                "last": data.splitlines()[-1].decode("utf-8", "replace") if data.strip() else None,
                "writes": sum(1 for s in state["writes"] if s == step),
                "late": sum(1 for s in state["writes"] if s is None)}

    def step(number, call):
        def fed():
            call()
            return {}

        state["step"] = number
        outcome = answer(fed)
        state["step"] = None
        report({**look(number), **outcome})

    recorder = SessionRecorder(log)  # a stub or an exception here is fatal: nothing can be fed
    for number, spec in enumerate(job["events"]):
        spec = dict(spec)
        event = getattr(agent_events, spec.pop("kind"))(**spec)
        step(number, lambda: recorder.handle(event))
    step("end", recorder.end_turn)


run(main)
