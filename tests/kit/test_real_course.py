"""The real course: every day's committed trees are what the generator makes, and
`grader verify` holds for every day (asserted by its verdict, row by row, not by a count).

verify grades each day's solution, its lab and one revert per exercise point. The corpus
tests grade those very trees too (tests/checks/conftest.py), so verify is handed their
results for a tree it builds identically (same bytes, same paths) instead of grading it
again; any other tree goes to the real engine. verify's own grading path, end to end with
the engine in child processes, is tests/kit/test_verify_engine.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from types import SimpleNamespace

from grader import scaffold
from grader.course import load_course
from grader.engine import run_day as engine_run_day
from grader.verify import render_table, verify
from tests.checks.conftest import tree_hash

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


def graded_trees(day) -> list[str]:
    return [f"{day.id}/solution", f"{day.id}/scaffold-lab", *(f"{day.id}/revert-{e.id}" for e in day.exercises)]


def reusing(gradings):
    """A run_day for verify that takes the corpus's grading of an identical tree."""
    def run_day(course, day, lab: Path):
        built = tree_hash(lab)
        for name in graded_trees(day):
            graded = gradings.get(name)
            if graded.tree_before == built:
                as_result = lambda c: SimpleNamespace(id=c["id"], status=c["status"], message=c["message"])  # noqa: E731
                return SimpleNamespace(checks=[as_result(c) for c in graded.report["checks"]],
                                       bonus=[as_result(c) for c in graded.report["bonus"]])
        return engine_run_day(course, day, lab)
    return run_day


@pytest.mark.parametrize("day_id", DAYS)
def test_grader_verify_holds(day_id, gradings):
    report = verify(COURSE, [day_id], run_day=reusing(gradings), workers=1)
    assert report.ok, render_table(report)
    items = {row.item for row in report.rows}
    assert {"solution passes every check", "nothing from a later day"} <= items
    assert {f"revert {ex.id}" for ex in COURSE.find_day(day_id).exercises} <= items


test_grader_verify_holds.labs_used = [name for day in COURSE.days for name in graded_trees(day)]
