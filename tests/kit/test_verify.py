"""verify on a synthetic course with a fake engine that really reads the tree it is given."""
from __future__ import annotations

import threading

import pytest

from grader.lab.backups import UnknownDay
from grader.report.results import CheckResult, DayResult
from grader.verify import VerifyReport, VerifyRow, render_table, verify

from .conftest import MOD, NEEDS, check, make_course


class FakeEngine:
    """run_day(course, day, lab) -> DayResult, judging pkg/mod.py's text; thread-safe."""

    def __init__(self, needs=None, status_on_fail="failed", crash_on=None):
        self.needs = needs or NEEDS
        self.status_on_fail = status_on_fail
        self.crash_on = crash_on
        self.calls = []
        self.lock = threading.Lock()

    def __call__(self, course, day, lab):
        text = (lab / "pkg/mod.py").read_text()
        with self.lock:
            self.calls.append((lab, text))
        if self.crash_on and self.crash_on in text:
            raise RuntimeError("engine exploded")

        def result(c):
            ok = all(s in text for s in self.needs.get(c.id, []))
            return CheckResult(c.id, c.title, "passed" if ok else self.status_on_fail, message="boom")
        return DayResult(day.id, day.title, str(lab), checks=[result(c) for c in day.checks_core],
                         bonus=[result(c) for c in day.checks_bonus])


def rows(report: VerifyReport) -> dict[str, VerifyRow]:
    return {r.item: r for r in report.rows}


def test_consistent_course_verifies(course):
    engine = FakeEngine()
    report = verify(course, run_day=engine)
    assert report.ok, render_table(report)
    assert list(rows(report)) == [
        "solution and lab equal the generated ones", "generated Python compiles", "nothing from a later day",
        "one region per exercise point", "TODO stubs say TODO(En)", "every check has 3 hint levels",
        "check docstrings equal their titles", "checks map to exercise points", "solution passes every check",
        "lab scores 1/3", "revert E1", "revert E2"]
    assert rows(report)["revert E1"].detail == "fails exactly c-one, b-both"
    # four runs, each on its own temp tree (never the committed lab), cleaned up afterwards
    labs = [lab for lab, _ in engine.calls]
    assert len(labs) == 4 and len(set(labs)) == 4
    assert all(course.root not in lab.parents and not lab.exists() for lab in labs)
    assert "all 12 items hold" in render_table(report)


def test_serial_mode_gives_the_same_rows(course):
    assert verify(course, run_day=FakeEngine(), workers=1).rows == verify(course, run_day=FakeEngine()).rows


def test_stub_without_todo(tmp_path):
    course = make_course(tmp_path, files={"pkg/mod.py": MOD.replace("TODO(E1): return one", "return one")})
    report = verify(course, run_day=FakeEngine())
    row = rows(report)["TODO stubs say TODO(En)"]
    assert not report.ok and not row.ok
    assert "E1's scaffold (pkg/mod.py:5) does not say TODO(E1)" in row.detail
    assert [r.item for r in report.failures] == ["TODO stubs say TODO(En)"]
    assert "FAIL" in render_table(report) and "1 to fix" in render_table(report)


def test_check_without_three_hint_levels(tmp_path):
    checks = [check("c-base"), check("c-one", ["E1"], hints=("just one",)), check("c-two", ["E2"]),
              check("b-both", ["E1", "E2"], bonus=True, hints=("one", "two"))]
    report = verify(make_course(tmp_path, checks=checks), run_day=FakeEngine())
    assert [r.item for r in report.failures] == ["every check has 3 hint levels"]
    assert "fewer than 3 hint levels: c-one (1), b-both (2)" in report.failures[0].detail


def test_docstring_that_is_not_the_title(course):
    module = course.days[0].checks_module
    module.write_text(module.read_text().replace('"""title of c-one"""', '"""one returns one"""'))
    report = verify(course, run_day=FakeEngine())
    assert [r.item for r in report.failures] == ["check docstrings equal their titles"]
    assert "test_c_one's docstring differs from the title of c-one" in report.failures[0].detail


def test_mapping_that_does_not_match(tmp_path):
    # course.toml claims c-two rests on E1, but the checks really test E2
    checks = [check("c-base"), check("c-one", ["E1"]), check("c-two", ["E1"]),
              check("b-both", ["E1", "E2"], bonus=True)]
    report = verify(make_course(tmp_path, checks=checks), run_day=FakeEngine())
    got = rows(report)
    assert not report.ok
    assert got["revert E2"].detail == "reverting E2 also failed c-two: course.toml maps E2 to b-both"
    assert got["revert E1"].detail.startswith("reverting E1 still passed c-two, which course.toml maps to E1")
    assert got["lab scores 1/3"].ok          # the count still holds


def test_exercise_no_check_tests(tmp_path):
    checks = [check("c-base"), check("c-one", ["E1"]), check("c-two")]
    report = verify(make_course(tmp_path, checks=checks, scaffold_passes=2),
                    run_day=FakeEngine(needs={"c-base": [], "c-one": ["    return 1\n"], "c-two": []}))
    assert "no check maps to E2" in rows(report)["checks map to exercise points"].detail


def test_drift_is_named(course):
    lab_mod = course.days[0].lab / "pkg/mod.py"
    lab_mod.write_text(lab_mod.read_text() + "# student was here\n")
    report = verify(course, run_day=FakeEngine())
    row = rows(report)["solution and lab equal the generated ones"]
    assert not row.ok and "lab: pkg/mod.py: differs from the generated file from line" in row.detail
    assert "python -m grader.scaffold day-01" in row.detail


def test_wrong_scaffold_passes(tmp_path):
    report = verify(make_course(tmp_path, scaffold_passes=2), run_day=FakeEngine())
    row = rows(report)["lab scores 2/3"]
    assert not row.ok and "the lab scores 1/3 but scaffold_passes = 2" in row.detail


def test_solution_failing_a_check(course):
    needs = dict(NEEDS, **{"b-both": ["never there"]})
    row = rows(verify(course, run_day=FakeEngine(needs=needs)))["solution passes every check"]
    assert not row.ok and "not passed: b-both (failed)" in row.detail


def test_erroring_checks_are_not_counted_as_failing(course):
    report = verify(course, run_day=FakeEngine(status_on_fail="error"))
    got = rows(report)
    assert "errored instead of failing" in got["revert E2"].detail and not got["revert E2"].ok
    assert "check(s) errored" in got["lab scores 1/3"].detail


def test_engine_crash_becomes_a_row(course):
    report = verify(course, run_day=FakeEngine(crash_on="return 2.0"))   # every run with E2 reverted
    got = rows(report)
    assert "grading run failed: RuntimeError: engine exploded" in got["revert E2"].detail
    assert "grading run failed" in got["lab scores 1/3"].detail
    assert got["revert E1"].ok and got["solution passes every check"].ok


def test_broken_markers_fail_the_rows_that_need_them(course):
    (course.source / "pkg/mod.py").write_text(MOD.replace("    # END SCAFFOLD day-01 E2\n", ""))
    report = verify(course, run_day=FakeEngine())
    got = rows(report)
    assert "region day-01 E2 is not closed" in got["one region per exercise point"].detail
    assert not got["generated Python compiles"].ok
    assert not got["solution passes every check"].ok and not got["revert E1"].ok
    assert got["lab scores 1/3"].ok         # the committed lab can still be graded


def test_unknown_day(course):
    with pytest.raises(UnknownDay):
        verify(course, ["day-42"], run_day=FakeEngine())


def test_report_is_not_ok_when_empty():
    assert not VerifyReport().ok


def test_two_days_verify_each_with_its_own_rows(two_day_course):
    report = verify(two_day_course, run_day=FakeEngine())
    assert report.ok, render_table(report)
    day2 = {r.item: r for r in report.rows if r.day == "day-02"}
    assert day2["lab scores 1/2"].ok and day2["revert E1"].detail == "fails exactly c-three"
    assert day2["nothing from a later day"].ok


def test_a_later_days_code_on_an_earlier_day_is_named(tmp_path):
    course = make_course(tmp_path, two_days=True)
    # An instructor pastes day 2's answer into a helper every day has.
    (course.source / "pkg/helpers.py").write_text(
        "def three():\n    answer = 1 + 2  # the answer of day two, worked out\n    return answer\n")
    report = verify(course, ["day-01"], run_day=FakeEngine())
    row = rows(report)["nothing from a later day"]
    assert not row.ok
    assert "day-02 E1 (pkg/mod.py:24) appears in" in row.detail and "pkg/helpers.py" in row.detail
    assert "'# [day 2+]' block" in row.detail


def test_a_later_days_region_outside_its_day_block_is_refused(tmp_path):
    course = make_course(tmp_path, two_days=True)
    text = (course.source / "pkg/mod.py").read_text().replace("# [day 2+]\n", "").replace("# [/day]\n", "")
    (course.source / "pkg/mod.py").write_text(text)
    got = rows(verify(course, ["day-01"], run_day=FakeEngine()))
    assert not got["generated Python compiles"].ok
    assert "region day-02 E1 would appear on day 1" in got["generated Python compiles"].detail
