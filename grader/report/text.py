"""The student-facing terminal report.

    ✓  1 runs        mca starts.
    ✗  2 greets      greet says hello.
         expected: hello Ann
         seen:     NotImplementedError: TODO(E1): greet
         hint: look closer
         more: grader hint day-01 greets

    1/3 passed · bonus 0/1
    next: E1 in mca/greet.py (fixes 1 check)

Colour only when asked (the CLI asks when stdout is a TTY and NO_COLOR is unset);
ASCII marks when the output encoding cannot print ✓ and ✗.
"""

from __future__ import annotations

from collections import Counter

from grader.course import Day
from grader.results import CheckResult, DayResult, failure_lines

UNICODE_MARKS = {"passed": "✓", "failed": "✗", "error": "✗", "timeout": "✗", "skipped": "-"}
ASCII_MARKS = {"passed": "+", "failed": "x", "error": "!", "timeout": "x", "skipped": "-"}
COLOURS = {"passed": "32", "failed": "31", "error": "31", "timeout": "31", "skipped": "33"}


def can_encode(encoding: str | None, text: str = "✓✗·") -> bool:
    try:
        text.encode(encoding or "ascii")
        return True
    except (LookupError, UnicodeEncodeError):
        return False


def next_exercise(result: DayResult, day: Day) -> tuple[str, str, int] | None:
    """The exercise point behind the most failing core checks: (id, file, count)."""
    counts = Counter(ex for check in result.checks if not check.passed for ex in check.exercises)
    if not counts:
        return None
    best = max(counts.values())
    for exercise in day.exercises:  # ties: the first in the manifest
        if counts.get(exercise.id) == best:
            return exercise.id, exercise.file, best
    return None


class _Painter:
    def __init__(self, colour: bool):
        self.colour = colour

    def __call__(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.colour else text


def render_text(result: DayResult, day: Day, *, keep: bool = False, colour: bool = False,
                unicode: bool = True) -> str:
    """The report as one string."""
    marks = UNICODE_MARKS if unicode else ASCII_MARKS
    paint = _Painter(colour)
    width = max((len(c.id) for c in result.all_results()), default=0)
    lines = [paint(f"{result.day_id}: {result.title}", "1"), f"lab: {result.lab}"]
    if result.seed is not None:
        lines.append(f"inputs: seed {result.seed} (grader check {result.day_id} --seed {result.seed} repeats them)")
    if result.blocked:
        lines.append(paint(result.blocked, COLOURS["failed"]))
    lines.append("")
    numbers = {c.id: n for n, c in enumerate(day.checks_core, 1)}  # the contract's numbers, even with --only
    for position, check in enumerate(result.checks, 1):
        number = numbers.get(check.id, position)
        lines += _check_lines(check, f"{number:>2}", width, marks, paint, result.day_id, keep)
    if result.bonus:
        lines += ["", "bonus:"]
        for check in result.bonus:
            lines += _check_lines(check, " *", width, marks, paint, result.day_id, keep)
    summary = f"{result.passed}/{result.total} passed"
    summary = paint(summary, COLOURS["passed" if result.all_core_passed else "failed"])
    if result.bonus_total:
        summary += f"   bonus {result.bonus_passed}/{result.bonus_total}"
    lines += ["", summary]
    nxt = next_exercise(result, day)
    if nxt and not result.blocked:
        ex_id, file, count = nxt
        lines.append(f"next: {ex_id} in {file} (fixes {count} check{'s' if count != 1 else ''})")
    if keep and result.run_root:
        lines.append(f"scratch directories kept in {result.run_root}")
    return "\n".join(lines) + "\n"


def _check_lines(check: CheckResult, number: str, width: int, marks, paint, day_id: str, keep: bool) -> list[str]:
    status = check.status.value
    mark = paint(marks[status], COLOURS[status])
    lines = [f" {mark} {number} {check.id:<{width}}  {check.title}"]
    pad = " " * 7
    for label, text in failure_lines(check):
        if label == "message":
            prefix = "" if status == "failed" else f"{status}: "
            shown = text.splitlines() if not (check.expected or check.seen) or status != "failed" else text.splitlines()[:1]
            for i, part in enumerate(shown):
                lines.append(pad + (prefix if i == 0 else " " * len(prefix)) + part)
        elif label == "seen":
            lines.append(f"{pad}seen:     {text}")
        else:
            lines.append(f"{pad}{label}: {text}")
            if label == "hint" and check.hint_level < check.hint_levels:
                lines.append(f"{pad}more: grader hint {day_id} {check.id}")
    if keep and not check.passed:
        for command in check.repro:
            lines.append(f"{pad}reproduce: {command}")
    return lines
