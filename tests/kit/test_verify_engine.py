"""verify with the real engine (pytest in process, in child processes when parallel)
on a synthetic course whose checks module is a few file-level checks."""
from __future__ import annotations

import pytest

from grader.verify import render_table, verify

from .conftest import make_course

CHECKS = '''
def _text(ctx):
    return (ctx.lab / "pkg" / "mod.py").read_text()


def test_c_base(ctx):
    """The lab has its README."""
    assert (ctx.lab / "README.md").exists()


def test_c_one(ctx):
    """one() returns 1."""
    assert "    return 1\\n" in _text(ctx), "one() does not return 1"


def test_c_two(ctx):
    """two() returns 2."""
    assert "    return 2\\n" in _text(ctx), "two() does not return 2"


def test_b_both(ctx):
    """Both."""
    text = _text(ctx)
    assert "    return 1\\n" in text and "    return 2\\n" in text
'''


@pytest.fixture
def engine_course(tmp_path):
    course = make_course(tmp_path)
    checks = course.days[0].checks
    checks.parent.mkdir(parents=True)
    checks.write_text(CHECKS)
    return course


@pytest.mark.parametrize("workers", [1, 2])
def test_verify_with_the_real_engine(engine_course, workers):
    report = verify(engine_course, workers=workers)
    assert report.ok, render_table(report)
    assert {r.item: r.detail for r in report.rows}["revert E2"] == "fails exactly c-two, b-both"


def test_real_engine_catches_a_wrong_mapping(engine_course):
    checks = engine_course.days[0].checks
    wrong = CHECKS.replace('2\\n" in _text(ctx), "two()', '1\\n" in _text(ctx), "two()')  # c-two tests E1
    assert wrong != CHECKS
    checks.write_text(wrong)
    rows = {r.item: r for r in verify(engine_course).rows}
    assert not rows["revert E2"].ok and "still passed c-two" in rows["revert E2"].detail
    assert "also failed c-two" in rows["revert E1"].detail
