"""The state file: timestamps, hint levels, atomic writes, corrupt files."""

from __future__ import annotations

import json

from freezegun import freeze_time

from grader.lab import hints
from grader.lab.state import State, state_path
from grader.report.results import CheckResult, DayResult


def _result(passed_ids, all_ids=("runs", "greets", "counts"), levels=None):
    """A result as the engine builds it: a failing check carries the hint level it shows."""
    def one(check_id):
        if check_id in passed_ids:
            return CheckResult(check_id, check_id, "passed")
        level = (levels or {}).get(check_id, 1)
        return CheckResult(check_id, check_id, "failed", hint="look closer", hint_level=level, hint_levels=3)
    return DayResult("day-01", "Hello", "/lab", [one(i) for i in all_ids])


def test_last_result_is_stamped_in_utc_and_survives_a_reload(course_dir):
    state = State.load(course_dir)
    with freeze_time("2030-05-06 07:08:09"):
        state.record_result(_result({"runs"}))
    state.save()
    again = State.load(course_dir)
    assert again.last("day-01") == {"passed": 1, "total": 3, "bonus_passed": 0, "bonus_total": 0,
                                    "when": "2030-05-06T07:08:09Z", "failed": ["greets", "counts"]}
    assert [p.name for p in state_path(course_dir).parent.iterdir()] == ["state.json"]  # no temp left


def test_hint_levels_progress_and_never_go_back(course):
    day = course.find_day("1")
    state = State.load(course.root)
    greets = day.check("greets")
    assert hints.report_levels(state, day)["greets"] == 1   # nothing revealed yet: the nudge
    result = _result({"runs"}, levels=hints.report_levels(state, day))
    assert result.checks[1].hint_level == 1 and result.checks[1].hint == "look closer"
    hints.mark_shown(state, day, result)
    assert state.revealed(day.id, "greets") == 1
    shown = [hints.reveal_next(state, day, greets) for _ in range(3)]
    assert [(s.level, s.already_all, s.more) for s in shown] == [(2, False, True), (3, False, False),
                                                                (3, True, False)]
    state.reveal(day.id, "greets", 1)
    assert state.revealed(day.id, "greets") == 3
    assert hints.report_level(state, day, greets) == 3


def test_checks_for_hint_follow_the_last_run(course):
    day = course.find_day("1")
    state = State.load(course.root)
    assert [c.id for c in hints.checks_for_hint(state, day)] == ["runs", "greets", "counts", "polite"]
    state.record_result(_result({"runs", "counts"}))
    assert [c.id for c in hints.checks_for_hint(state, day)] == ["greets"]


def test_corrupt_state_warns_keeps_a_backup_and_starts_fresh(course_dir):
    path = state_path(course_dir)
    path.parent.mkdir()
    path.write_text("{not json")
    state = State.load(course_dir)
    assert state.warnings and "starting fresh" in state.warnings[0]
    assert path.with_name("state.json.bak").read_text() == "{not json"
    assert state.last("day-01") is None
    state.reveal("day-01", "greets", 2)
    state.save()
    assert json.loads(path.read_text())["days"]["day-01"]["hints"] == {"greets": 2}


def test_wrong_shape_counts_as_corrupt(course_dir):
    path = state_path(course_dir)
    path.parent.mkdir()
    path.write_text(json.dumps({"version": 99, "days": {}}))
    assert State.load(course_dir).warnings
