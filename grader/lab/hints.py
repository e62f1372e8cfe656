"""Hint levels: a failing check's report shows hint 1 (or the deepest level the
student already asked for); `grader hint DAY CHECK` reveals the next level of that
one check and records it; `grader hint DAY` only shows where each failing core check
stands (`current`), moving nothing.

The report counts as having shown level 1, so the first `grader hint DAY CHECK` after
a failing run gives level 2 ("more"), never the same nudge again.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.course import Check, Day
from grader.i18n import word
from grader.lab.state import State
from grader.report.results import DayResult


@dataclass(frozen=True)
class HintShown:
    check_id: str
    level: int  # 1-based
    total: int
    text: str
    already_all: bool  # every level had been revealed before this request

    @property
    def more(self) -> bool:
        return self.level < self.total


def report_level(state: State, day: Day, check: Check) -> int:
    """The level a check report shows: the deepest revealed, at least 1."""
    return min(max(state.revealed(day.id, check.id), 1), len(check.hints))


def report_levels(state: State, day: Day) -> dict[str, int]:
    """{check id: the hint level its report shows if it fails}: what the engine needs."""
    return {check.id: report_level(state, day, check) for check in day.all_checks}


def mark_shown(state: State, day: Day, result: DayResult) -> None:
    """Remember that each failing check's report showed its hint level."""
    for check_result in result.all_results():
        if check_result.hint_level:
            state.reveal(day.id, check_result.id, check_result.hint_level)


def reveal_next(state: State, day: Day, check: Check) -> HintShown:
    """The next unrevealed level of a check (or the last one again), recorded."""
    seen = state.revealed(day.id, check.id)
    level = min(seen + 1, len(check.hints))
    state.reveal(day.id, check.id, level)
    return HintShown(check.id, level, len(check.hints), check.hints[level - 1], seen >= len(check.hints))


def current(state: State, day: Day, check: Check) -> HintShown:
    """The level a check is at (the deepest revealed, level 1 if never seen); records nothing."""
    level = report_level(state, day, check)
    return HintShown(check.id, level, len(check.hints), check.hints[level - 1], False)


def resolve(state: State, day: Day, text: str) -> list[Check]:
    """The checks `grader hint DAY CHECK` means: a check id, its number in the report (core
    checks 1, 2, ...) or an exercise point (`E3`: the first of its core checks that did not
    pass in the last run, or its first if none is recorded failing: one more hint for a point
    moves one check one level, never every check of the point at once). KeyError with the
    choices otherwise."""
    wanted = text.strip()
    for check in day.all_checks:
        if check.id == wanted:
            return [check]
    if wanted.isdigit():
        number = int(wanted)
        if 1 <= number <= len(day.checks_core):
            return [day.checks_core[number - 1]]
        raise KeyError(word("hint.no_number", day=day.id, number=number, last=len(day.checks_core)))
    for exercise in day.exercises:
        if exercise.id.lower() == wanted.lower():
            mapped = [c for c in day.checks_core if exercise.id in c.exercises]
            if not mapped:
                raise KeyError(word("hint.no_mapped", day=day.id, exercise=exercise.id))
            last = state.last(day.id)
            failed = set(last.get("failed") or []) if last else set()
            return ([c for c in mapped if c.id in failed] or mapped)[:1]
    known = ", ".join(c.id for c in day.all_checks)
    points = ", ".join(x.id for x in day.exercises) or word("hint.no_points")
    raise KeyError(word("hint.unknown_check", day=day.id, check=text, known=known, last=len(day.checks_core),
                        points=points))


def checks_for_hint(state: State, day: Day) -> list[Check]:
    """Without a check named: those that failed in the last run, or all if none recorded."""
    last = state.last(day.id)
    if last is None:
        return list(day.all_checks)
    failed = set(last.get("failed") or [])
    return [check for check in day.all_checks if check.id in failed]
