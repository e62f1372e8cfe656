"""Hint levels: a failing check's report shows hint 1 (or the deepest level the
student already asked for); `grader hint` reveals the next level and records it.

The report counts as having shown level 1, so the first `grader hint` after a
failing run gives level 2 ("more"), never the same nudge again.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.course import Check, Day
from grader.results import DayResult
from grader.state import State


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


def apply_to_result(state: State, day: Day, result: DayResult) -> dict[str, tuple[int, int]]:
    """Put each failing check's report hint into the result, mark level 1 as seen,
    and return {check id: (level shown, levels in all)} for the text report."""
    levels = {}
    for check_result in result.all_results():
        if check_result.passed:
            continue
        check = day.check(check_result.id)
        level = report_level(state, day, check)
        check_result.hint = check.hints[level - 1]
        state.reveal(day.id, check.id, level)
        levels[check.id] = (level, len(check.hints))
    return levels


def reveal_next(state: State, day: Day, check: Check) -> HintShown:
    """The next unrevealed level of a check (or the last one again), recorded."""
    seen = state.revealed(day.id, check.id)
    level = min(seen + 1, len(check.hints))
    state.reveal(day.id, check.id, level)
    return HintShown(check.id, level, len(check.hints), check.hints[level - 1], seen >= len(check.hints))


def checks_for_hint(state: State, day: Day) -> list[Check]:
    """Without a check named: those that failed in the last run, or all if none recorded."""
    last = state.last(day.id)
    if last is None:
        return list(day.all_checks)
    failed = set(last.get("failed") or [])
    return [check for check in day.all_checks if check.id in failed]
