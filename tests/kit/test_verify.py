"""verify on a synthetic course with a fake engine that really reads the tree it is given."""
from __future__ import annotations

import threading

import pytest

from grader.backups import UnknownDay
from grader.results import CheckResult, DayResult
from grader.verify import VerifyReport, VerifyRow, render_table, verify

from .conftest import MOD, check, make_course

# What each fake check needs to see in pkg/mod.py to pass.
NEEDS = {"c-base": [], "c-one": ["    return 1\n"], "c-two": ["    return 2\n"],
         "b-both": ["    return 1\n", "    return 2\n"]}


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
        "lab equals generated lab", "one region per exercise point", "TODO stubs say TODO(En)",
        "every check has a hint", "checks map to exercise points", "solution passes every check",
        "lab scores 1/3", "revert E1", "revert E2"]
    assert rows(report)["revert E1"].detail == "fails exactly c-one, b-both"
    # four runs, each on its own temp tree (never the committed lab), cleaned up afterwards
    labs = [lab for lab, _ in engine.calls]
    assert len(labs) == 4 and len(set(labs)) == 4
    assert all(course.root not in lab.parents and not lab.exists() for lab in labs)
    assert "all 9 items hold" in render_table(report)


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


def test_check_without_hint(tmp_path):
    checks = [check("c-base"), check("c-one", ["E1"], hints=()), check("c-two", ["E2"]),
              check("b-both", ["E1", "E2"], bonus=True, hints=())]
    report = verify(make_course(tmp_path, checks=checks), run_day=FakeEngine())
    assert [r.item for r in report.failures] == ["every check has a hint"]
    assert "no hint for c-one, b-both" in report.failures[0].detail


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
    row = rows(report)["lab equals generated lab"]
    assert not row.ok and "pkg/mod.py: differs from the generated file from line" in row.detail
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
    (course.days[0].solution / "pkg/mod.py").write_text(MOD.replace("    # END SCAFFOLD E2\n", ""))
    report = verify(course, run_day=FakeEngine())
    got = rows(report)
    assert "region E2 is not closed" in got["one region per exercise point"].detail
    assert not got["solution passes every check"].ok and not got["revert E1"].ok
    assert got["lab scores 1/3"].ok         # the committed lab can still be graded


def test_unknown_day(course):
    with pytest.raises(UnknownDay):
        verify(course, ["day-42"], run_day=FakeEngine())


def test_report_is_not_ok_when_empty():
    assert not VerifyReport().ok
