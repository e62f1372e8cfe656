"""`next:` names the point whose code is still failing: day 1 solved hole by hole.

The real day-1 trees, graded by the real engine: the solution with some exercise points
reverted to their scaffolds stands for a student who has solved the others. At every step
`next:` must name a point that is still reverted, never one already solved (checks that
rest on two points used to send the student back to the finished one, E3, while E4's
stubs were what raised)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import scaffold
from grader.course import load_course
from grader.engine import run_day
from grader.report.text import next_exercise, render_text
from grader.scaffold import trees

ROOT = Path(__file__).resolve().parents[2]
COURSE = load_course(ROOT / "course.toml")
DAY = COURSE.find_day("day-01")
POINTS = [exercise.id for exercise in DAY.exercises]


def grade(tmp_path: Path, reverted: set[str]):
    lab = tmp_path / ("lab-" + ("-".join(sorted(reverted)) or "none"))
    tree, modes = scaffold.build(COURSE, DAY, lab=False, revert=reverted)
    trees.write_tree(tree, lab, modes)
    return run_day(COURSE, DAY, lab, seed=7)


def named(result) -> str | None:
    found = next_exercise(result, DAY)
    text = render_text(result, DAY)
    if found is None:
        assert "next:" not in text
        return None
    assert text.splitlines()[-1].startswith(f"next: {found[0]} in {found[1]} ")
    return found[0]


@pytest.mark.parametrize("point", POINTS)
def test_one_point_reverted_is_the_one_named(tmp_path, point):
    result = grade(tmp_path, {point})
    assert not result.all_core_passed
    assert named(result) == point


def test_following_next_solves_the_day_hole_by_hole(tmp_path):
    reverted = set(POINTS)   # the untouched lab's holes
    steps = []
    while True:
        result = grade(tmp_path, reverted)
        point = named(result)
        steps.append((result.passed, point))
        if point is None:
            break
        assert point in reverted, f"next: names {point}, already solved (still open: {sorted(reverted)}): {steps}"
        reverted.discard(point)
    assert not reverted and result.all_core_passed, steps
    assert [passed for passed, _ in steps] == sorted(passed for passed, _ in steps)


def test_solving_in_the_manifest_order_never_names_a_solved_point(tmp_path):
    for solved in range(len(POINTS)):
        reverted = set(POINTS[solved:])
        point = named(grade(tmp_path, reverted))
        assert point in reverted, (POINTS[:solved], point)
