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
from grader.results import CheckResult, DayResult

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
                unicode: bool = True, hint_levels: dict[str, tuple[int, int]] | None = None) -> str:
    """The report as one string. `hint_levels` maps check id -> (level shown, levels in all)."""
    marks = UNICODE_MARKS if unicode else ASCII_MARKS
    paint = _Painter(colour)
    width = max((len(c.id) for c in result.all_results()), default=0)
    lines = [paint(f"{result.day_id}: {result.title}", "1"), f"lab: {result.lab}", ""]
    numbers = {c.id: n for n, c in enumerate(day.checks_core, 1)}  # the contract's numbers, even with --only
    for position, check in enumerate(result.checks, 1):
        number = numbers.get(check.id, position)
        lines += _check_lines(check, f"{number:>2}", width, marks, paint, result.day_id, keep, hint_levels)
    if result.bonus:
        lines += ["", "bonus:"]
        for check in result.bonus:
            lines += _check_lines(check, " *", width, marks, paint, result.day_id, keep, hint_levels)
    summary = f"{result.passed}/{result.total} passed"
    summary = paint(summary, COLOURS["passed" if result.all_core_passed else "failed"])
    if result.bonus_total:
        summary += f"   bonus {result.bonus_passed}/{result.bonus_total}"
    lines += ["", summary]
    nxt = next_exercise(result, day)
    if nxt:
        ex_id, file, count = nxt
        lines.append(f"next: {ex_id} in {file} (fixes {count} check{'s' if count != 1 else ''})")
    if keep and result.run_root:
        lines.append(f"scratch directories kept in {result.run_root}")
    return "\n".join(lines) + "\n"


def _check_lines(check: CheckResult, number: str, width: int, marks, paint, day_id: str, keep: bool,
                 hint_levels) -> list[str]:
    mark = paint(marks[check.status], COLOURS[check.status])
    lines = [f" {mark} {number} {check.id:<{width}}  {check.title}"]
    if check.passed:
        return lines
    pad = " " * 7
    if check.status != "failed" or not (check.expected or check.seen):
        label = "" if check.status == "failed" else f"{check.status}: "
        for i, text in enumerate((check.message or check.status).splitlines()):
            lines.append(pad + (label if i == 0 else " " * len(label)) + text)
    elif check.message:
        lines.append(pad + check.message.splitlines()[0])
    if check.expected is not None:
        lines.append(f"{pad}expected: {check.expected}")
    if check.seen is not None:
        lines.append(f"{pad}seen:     {check.seen}")
    if check.hint and check.status != "skipped":
        lines.append(f"{pad}hint: {check.hint}")
        level, total = (hint_levels or {}).get(check.id, (1, 2))
        if level < total:
            lines.append(f"{pad}more: grader hint {day_id} {check.id}")
    if keep:
        for command in check.repro:
            lines.append(f"{pad}reproduce: {command}")
    return lines
