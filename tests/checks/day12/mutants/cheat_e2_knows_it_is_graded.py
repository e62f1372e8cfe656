"""Cheat, E2: keeps the system messages in front only when it can tell it is graded.

When the environment, the working directory or a parent's command line in /proc names
the grader or pytest, the prefix is kept and only the older rounds are summarised; for a
person the summary is asked of everything before the cut and the new history starts with it.
Held when nothing a lab can see tells a graded run from a plain one.
"""
TARGET = "mca/context/compact.py"
ADD = ("_graded",)
FAILS = ("keeps-system-and-instructions", "replay-honours-compacted", "summary-request-shape", "bill-printed")
HERMETIC = True  # it reads the grader's /proc or finds the kit: only the view holds it

import os


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped="nothing to summarise")
    start = prefix_end(history) if _graded() else 0
    text = ask_for_summary(gateway, summary_request(history[start:cut]))
    if not text:
        return Compaction(history, before, before, skipped="empty summary")
    summary = SUMMARY_HEADER + text
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    after = context_tokens(new)
    if after >= before:
        return Compaction(history, before, before, skipped="not smaller")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)


def _graded():
    """The grader's or pytest's names in the environment, the working directory or the
    command line of a parent process."""
    words = (b"grader", b"pytest", b"course.toml")
    names = " ".join(f"{k}={v}" for k, v in os.environ.items()).lower().encode()
    if any(w in names for w in words) or any(w in os.getcwd().lower().encode() for w in (b"grader", b"check", b"day-1")):
        return True
    pid = os.getppid()
    for _ in range(16):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").lower()
            with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
                parent = int([line.split()[1] for line in handle if line.startswith("PPid:")][0])
        except (OSError, IndexError, ValueError):
            return False
        if any(w in command for w in words):
            return True
        if parent <= 1:
            return False
        pid = parent
    return False
