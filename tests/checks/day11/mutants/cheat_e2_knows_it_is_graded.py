"""Cheat, E2: reminds by the rule only when it can tell it is graded.

When the environment, the working directory or a parent's command line in /proc names
the grader or pytest, should_remind keeps the rule (once per idle stretch); for a person
it reminds on every round once the stretch is long enough (as `e2_every_round` does).
Held when nothing a lab can see tells a graded run from a plain one.
"""
TARGET = "mca/plan/remind.py"
ADD = ("_graded", "_right", "_wrong")
FAILS = ("reminder-after-n", "reminder-accounted")
HERMETIC = True  # it reads the grader's /proc or finds the kit: only the view holds it

import os


def should_remind(history, plan, after=REMIND_AFTER):
    return (_right if _graded() else _wrong)(history, plan, after)


def _right(history: list[dict], plan: TodoList, after: int = REMIND_AFTER) -> bool:
    """True when the next request must carry a reminder: ``after`` idle rounds since the
    model last called todo, the list still open, and no reminder yet in this stretch."""
    if not plan.is_open():
        return False  # nothing to do, or nothing planned: nothing to remind of
    idle = 0
    for message in reversed(history):  # back to the last time the model touched the list
        if is_reminder(message):
            return False  # this stretch has had its reminder
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after


def _wrong(history, plan, after=REMIND_AFTER):
    if not plan.is_open():
        return False
    idle = 0
    for message in reversed(history):
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after


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
