"""Grader harness: with this process's stdin, does an ask become a "no"?

    python asker.py LAB JOB.json         (the prelude takes LAB)

JOB: {"workdir": DIR, "stdin": "as-given" | "devnull" | "none" | "pipe-text" | "file-text", "text": str,
"tty_out": bool, "out": FILE, "calls": [{"name", "args"}, ...]}. "devnull" puts /dev/null on fd 0;
"pipe-text" a pipe already holding "text" (answers typed ahead, the writing end kept open);
"file-text" a file holding it (as with < answers.txt); "none" closes fd 0
and leaves sys.stdin None, as Python does when a program is started with its stdin
closed; "tty_out" puts stdout
and stderr on a pseudo-terminal of their own (a person watching, nobody typing). Then
the lab's terminal_asker() chooses who answers, an Approver with the built-in rules
decides each call, and one answer per call is appended to FILE (harnesskit's report):
{"harness": "asker", "i": N, "allowed": bool, "reason": str}, or a stub or an exception.
"""
import os
import pty
import sys
from pathlib import Path

from harnesskit import answer, job as read_job, report, run

job = read_job()
out = open(job["out"], "a", encoding="utf-8")
if job.get("tty_out"):
    master, terminal = pty.openpty()  # the master stays open (and unread): writes do not fail
    os.dup2(terminal, 1)
    os.dup2(terminal, 2)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)


if job.get("stdin") == "none":
    os.close(0)
    sys.stdin = None
elif job.get("stdin") == "devnull":  # as if started with < /dev/null
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.stdin = open(0, "r", encoding="utf-8", closefd=False)
elif job.get("stdin") == "pipe-text":  # as with printf 'y\n' | mca ..., the writer still there
    reading, writing = os.pipe()
    os.write(writing, job.get("text", "").encode("utf-8"))
    os.dup2(reading, 0)
    sys.stdin = open(0, "r", encoding="utf-8", closefd=False)
elif job.get("stdin") == "file-text":  # as with < answers.txt
    answers = Path(job["out"]).with_name("typed.txt")
    answers.write_text(job.get("text", ""), encoding="utf-8")
    os.dup2(os.open(answers, os.O_RDONLY), 0)
    sys.stdin = open(0, "r", encoding="utf-8", closefd=False)

def main(job):
    from mca.tools.approval import Approver, load_rules, terminal_asker
    from mca.tools.registry import default_tools

    workdir = Path(job["workdir"])
    ask = terminal_asker()
    approver = Approver.for_tools(default_tools(workdir), load_rules(workdir), ask=ask, workdir=workdir)

    def decide(call):
        decision = approver.decide(call["name"], call["args"])
        return {"allowed": bool(decision.allowed), "reason": str(decision.reason)}

    for i, call in enumerate(job["calls"]):
        report(answer(decide, call), stream=out, i=i)


run(main, stream=out)
