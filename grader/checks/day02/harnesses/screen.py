"""Grader harness: feed the lab's Screen a scripted sequence of agent events.

    python screen.py LAB JOB.json     (the prelude takes LAB)

The gateway package is made unimportable first: the screen must work from agent
events alone (mca/agent/events.py), never from what the gateway streamed. JOB is
{"events": [[kind, ...], ...]} with kinds user, text, usage, assistant, tool and
error. The events are shown twice: once with stdout and stderr kept apart, once
both into one buffer, as on a terminal. With {"flush_probe": TEXT} instead, the screen
is shown one TextDelta of TEXT on streams that note each write and flush, and the answer
says whether the text was flushed after it was written (a buffered stdout holds it back
otherwise). One answer.
"""
import io
import sys

from harnesskit import answer, report, run

sys.modules["mca.gateway"] = None  # `import mca.gateway` (or anything in it) now fails


def events_of(script):
    from mca.agent.events import ErrorOccurred, MessageAdded, TextDelta, UsageReported
    for kind, *values in script:
        if kind == "text":
            yield TextDelta(values[0])
        elif kind == "usage":
            yield UsageReported(values[0], values[1])
        elif kind == "error":
            yield ErrorOccurred(values[0], values[1])
        elif kind == "user":
            yield MessageAdded({"role": "user", "content": values[0]})
        elif kind == "tool":
            yield MessageAdded({"role": "tool", "tool_call_id": values[0], "content": values[1]})
        elif kind == "assistant":
            message = {"role": "assistant", "content": ""}
            if values[0]:
                message["tool_calls"] = values[0]
            yield MessageAdded(message)


def show(script, together):
    from mca.screen import Screen
    out, err = io.StringIO(), io.StringIO()
    screen = Screen(out=out, err=out if together else err)
    for event in events_of(script):
        screen.show(event)
    return {"out": out.getvalue(), "err": err.getvalue(), "errors": screen.errors}


class Noting(io.StringIO):
    """A stream that notes, in order, every write (of anything) and every flush."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def write(self, text):
        if text:
            self.ops.append("write")
        return super().write(text)

    def flush(self):
        self.ops.append("flush")
        return super().flush()


def flush_probe(text):
    from mca.agent.events import TextDelta
    from mca.screen import Screen
    out, err = Noting(), Noting()
    Screen(out=out, err=err).show(TextDelta(text))
    wrote = "write" in out.ops and text in out.getvalue()
    return {"wrote": wrote, "flushed": wrote and "flush" in out.ops[len(out.ops) - out.ops[::-1].index("write"):]}


def main(job):
    try:
        import mca.screen  # noqa: F401  (fails here if the screen needs the gateway)
    except ImportError as exc:
        report({"import": f"{type(exc).__name__}: {exc}"})
        return
    if "flush_probe" in job:
        report(answer(lambda: {"flush_probe": flush_probe(job["flush_probe"])}))
    else:
        report(answer(lambda: {"apart": show(job["events"], False), "together": show(job["events"], True)}))


run(main)
