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
decides each call, and one JSON line per call is appended to FILE:
{"harness": "asker", "i": N, "allowed": bool, "reason": str}, or "raised".
"""
import json
import os
import pty
import sys
import traceback
from pathlib import Path

job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
out = open(job["out"], "a", encoding="utf-8")
if job.get("tty_out"):
    master, terminal = pty.openpty()  # the master stays open (and unread): writes do not fail
    os.dup2(terminal, 1)
    os.dup2(terminal, 2)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)


def say(**fields):
    out.write(json.dumps({"harness": "asker", **fields}, ensure_ascii=False) + "\n")
    out.flush()


def where(exc):
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/mca/" in f.filename.replace("\\", "/")]
    frame = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
    return f"{frame.filename.replace(chr(92), '/').rsplit('/mca/', 1)[-1]}, line {frame.lineno}"


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

try:
    from mca.tools.approval import Approver, load_rules, terminal_asker
    from mca.tools.registry import default_tools

    workdir = Path(job["workdir"])
    ask = terminal_asker()
    approver = Approver.for_tools(default_tools(workdir), load_rules(workdir), ask=ask, workdir=workdir)
except Exception as exc:
    say(i=-1, raised=f"{type(exc).__name__}: {exc}", where=where(exc))
    sys.exit(0)

for i, call in enumerate(job["calls"]):
    try:
        decision = approver.decide(call["name"], call["args"])
    except Exception as exc:
        say(i=i, raised=f"{type(exc).__name__}: {exc}", where=where(exc))
        continue
    say(i=i, allowed=bool(decision.allowed), reason=str(decision.reason))
