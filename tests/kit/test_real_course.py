"""The real course: every day's committed trees are what the generator makes, and
`grader verify` holds for every day (asserted by its verdict, row by row, not by a count)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import scaffold
from grader.course import load_course
from grader.verify import render_table, verify

ROOT = Path(__file__).resolve().parents[2]
COURSE = load_course(ROOT / "course.toml")
DAYS = [day.id for day in COURSE.days]


@pytest.mark.parametrize("day_id", DAYS)
def test_committed_trees_equal_the_generated_ones(day_id):
    day = COURSE.find_day(day_id)
    drift = scaffold.diff(COURSE, day)
    assert not drift, f"{day_id} differs from what `python -m grader.scaffold {day_id}` makes:\n" + "\n".join(
        map(str, drift))


@pytest.mark.parametrize("tree", ["labs", "solutions"])
def test_generated_trees_carry_no_markers(tree):
    for path in (ROOT / tree).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "BEGIN SCAFFOLD" not in text and "# [day" not in text, path


@pytest.mark.parametrize("day_id", DAYS)
def test_grader_verify_holds(day_id):
    report = verify(COURSE, [day_id])
    assert report.ok, render_table(report)
    items = {row.item for row in report.rows}
    assert {"solution passes every check", "nothing from a later day"} <= items
    assert {f"revert {ex.id}" for ex in COURSE.find_day(day_id).exercises} <= items
