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
from grader.i18n import pad as pad_to, display_width, word
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
    lines = [paint(f"{result.day_id}: {result.title}", "1"), word("report.lab", lab=result.lab)]
    if result.seed is not None:
        lines.append(word("report.inputs", seed=result.seed, day=result.day_id))
    if result.blocked:
        lines.append(paint(result.blocked, COLOURS["failed"]))
    lines.append("")
    numbers = {c.id: n for n, c in enumerate(day.checks_core, 1)}  # the contract's numbers, even with --only
    for position, check in enumerate(result.checks, 1):
        number = numbers.get(check.id, position)
        lines += _check_lines(check, f"{number:>2}", width, marks, paint, result.day_id, keep)
    if result.bonus:
        lines += ["", word("report.bonus_heading")]
        for check in result.bonus:
            lines += _check_lines(check, " *", width, marks, paint, result.day_id, keep)
    summary = word("report.passed", passed=result.passed, total=result.total)
    summary = paint(summary, COLOURS["passed" if result.all_core_passed else "failed"])
    if result.bonus_total:
        summary += word("report.bonus", passed=result.bonus_passed, total=result.bonus_total)
    lines += ["", summary]
    nxt = next_exercise(result, day)
    if nxt and not result.blocked:
        ex_id, file, count = nxt
        lines.append(word("report.next_one" if count == 1 else "report.next_many", exercise=ex_id, file=file,
                          count=count))
    if keep and result.run_root:
        lines.append(word("report.kept", path=result.run_root))
    return "\n".join(lines) + "\n"


def _check_lines(check: CheckResult, number: str, width: int, marks, paint, day_id: str, keep: bool) -> list[str]:
    status = check.status.value
    mark = paint(marks[status], COLOURS[status])
    lines = [f" {mark} {number} {check.id:<{width}}  {check.title}"]
    pad = " " * 7
    # expected/seen labels padded alike, in columns (a CJK character takes two)
    aligned = max(display_width(word("label.expected")), display_width(word("label.seen")))
    for label, text in failure_lines(check):
        if label == "message":
            prefix = "" if status == "failed" else word(f"label.{status}")
            shown = text.splitlines() if not (check.expected or check.seen) or status != "failed" else text.splitlines()[:1]
            for i, part in enumerate(shown):
                lines.append(pad + (prefix if i == 0 else " " * display_width(prefix)) + part)
        elif label in ("expected", "seen"):
            lines.append(pad + pad_to(word(f"label.{label}"), aligned) + text)
        else:
            lines.append(pad + word(f"label.{label}") + text)
            if label == "hint" and check.hint_level < check.hint_levels:
                lines.append(pad + word("report.more", day=day_id, check=check.id))
    if keep and not check.passed:
        for command in check.repro:
            lines.append(pad + word("report.reproduce", command=command))
    return lines
