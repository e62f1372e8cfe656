"""Grader harness: the lab's agent as `python -m mca ARGS` runs it, on a clock that never makes it wait.

    python clock.py LAB PAUSES ARGS...     (the prelude takes LAB)

Before the lab is imported, `time.sleep` is replaced by a function that notes each pause
asked for (one JSON line to PAUSES: {"at": time.monotonic(), "seconds": ...}) and returns
at once. Then the agent's package runs as `python -m` runs it, with ARGS. The check reads
the pauses the agent asked for between two requests from the notes whose `at` falls
between the requests' arrivals (several short sleeps in a row are one pause): the schedule
is judged exactly, whatever the load of the machine, and nothing waits for it.
"""
import json
import runpy
import sys
import time

PAUSES = sys.argv.pop(1)
_real_sleep = time.sleep


def sleep(seconds):
    seconds = float(seconds)  # what time.sleep refuses, this refuses too
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    with open(PAUSES, "a", encoding="utf-8") as notes:
        notes.write(json.dumps({"at": time.monotonic(), "seconds": seconds}) + "\n")
    _real_sleep(0)


time.sleep = sleep
runpy.run_module("mca", run_name="__main__", alter_sys=True)
