"""verify with the real engine (pytest in process, in child processes when parallel)
on synthetic courses whose checks are a few file-level checks."""
from __future__ import annotations

import pytest

from grader.verify import render_table, verify

from .conftest import make_course


@pytest.mark.parametrize("workers", [1, 2])
def test_verify_with_the_real_engine(tmp_path, workers):
    course = make_course(tmp_path, two_days=True)
    report = verify(course, workers=workers)
    assert report.ok, render_table(report)
    details = {(r.day, r.item): r.detail for r in report.rows}
    assert details["day-01", "revert E2"] == "fails exactly c-two, b-both"
    assert details["day-02", "revert E1"] == "fails exactly c-three"


def test_real_engine_catches_a_wrong_mapping(tmp_path):
    course = make_course(tmp_path)
    module = course.days[0].checks_module
    wrong = module.read_text().replace("['    return 2\\n']", "['    return 1\\n']")  # c-two really tests E1
    assert wrong != module.read_text()
    module.write_text(wrong)
    rows = {r.item: r for r in verify(course).rows}
    assert not rows["revert E2"].ok and "still passed c-two" in rows["revert E2"].detail
    assert "also failed c-two" in rows["revert E1"].detail
