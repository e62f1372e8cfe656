"""run_day: pytest in process, statuses mapped, order kept, nothing left behind."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from grader.engine import EngineError, run_day


def tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def statuses(result):
    return {c.id: c.status for c in result.all_results()}


def test_lab_scores_its_scaffold_passes_and_is_left_untouched(course, course_dir):
    day = course.find_day("1")
    before = tree_digest(day.lab)
    result = run_day(course, day, day.lab)
    assert tree_digest(day.lab) == before
    assert statuses(result) == {"runs": "passed", "greets": "failed", "counts": "failed", "polite": "failed"}
    assert (result.passed, result.total, result.bonus_passed, result.bonus_total) == (1, 3, 0, 1)
    greets = result.checks[1]
    assert greets.expected == "hello Ann" and "TODO(E1)" in greets.seen
    assert greets.hint == "look closer" and greets.exercises == ("E1",)
    assert result.checks[2].message == "`count a b c` printed '2', not 3"  # pytest introspection dropped
    assert result.environment["python"] and result.environment["grader"]
    assert not list(Path.cwd().iterdir())  # nothing written into the cwd


def test_solution_passes_everything(course):
    day = course.find_day("day-01")
    result = run_day(course, day, day.solution)
    assert result.all_core_passed and result.bonus_passed == 1


def test_every_outcome_maps_to_its_status_in_manifest_order(course):
    result = run_day(course, course.find_day("2"), course.find_day("2").lab)
    assert [c.id for c in result.checks] == ["ok", "wrong", "broken", "slow", "skipped",
                                            "shared-a", "shared-b", "missing"]
    by_id = {c.id: c for c in result.checks}
    assert statuses(result) == {"ok": "passed", "wrong": "failed", "broken": "error", "slow": "timeout",
                                "skipped": "skipped", "shared-a": "error", "shared-b": "error",
                                "missing": "error"}
    assert (by_id["wrong"].expected, by_id["wrong"].seen) == ("42", "41")
    assert "KeyError" in by_id["broken"].message
    assert "did not finish within 0.5 s" in by_id["slow"].message
    assert by_id["skipped"].message == "needs test_ok's output"
    for shared in ("shared-a", "shared-b"):
        assert "the shared round could not be prepared" in by_id[shared].message
    assert by_id["missing"].message == "check not implemented: checks.py has no test_missing()"
    assert by_id["slow"].repro and "sleep(30)" in by_id["slow"].repro[0]
    assert by_id["ok"].repro == ()  # each check's record holds its own children only


def test_select_runs_only_the_named_checks(course):
    day = course.find_day("1")
    result = run_day(course, day, day.lab, select=["counts", "polite"])
    assert [c.id for c in result.all_results()] == ["counts", "polite"]


def test_select_unknown_check_is_an_engine_error(course):
    day = course.find_day("1")
    with pytest.raises(EngineError, match="no check 'nope'. Its checks are: runs, greets"):
        run_day(course, day, day.lab, select=["nope"])


def test_keep_keeps_the_run_root_and_its_scratch_dirs(course):
    day = course.find_day("1")
    kept = run_day(course, day, day.lab, keep=True)
    try:
        from grader.checkkit.context import neutral
        assert kept.run_root and (Path(kept.run_root) / "work" / neutral("greets")).is_dir()
    finally:
        import shutil

        shutil.rmtree(kept.run_root)
    assert run_day(course, day, day.lab, select=["runs"]).run_root is None


def test_a_test_the_manifest_does_not_list_is_refused(course, course_dir):
    module = course_dir / "checks" / "day01" / "checks.py"
    module.write_text(module.read_text() + "\n\ndef test_extra(ctx):\n    pass\n")
    day = course.find_day("1")
    with pytest.raises(EngineError, match="defines test_extra, which course.toml does not list for day-01"):
        run_day(course, day, day.lab)


def test_a_module_that_cannot_be_imported_is_an_engine_error(course, course_dir):
    (course_dir / "checks" / "day01" / "checks.py").write_text("def test_runs(ctx:\n")
    day = course.find_day("1")
    with pytest.raises(EngineError, match="could not be loaded"):
        run_day(course, day, day.lab)


def test_missing_checks_module_and_missing_lab(course, course_dir, tmp_path):
    day = course.find_day("1")
    (course_dir / "labs" / "day-01-hello").rename(tmp_path / "moved")
    with pytest.raises(EngineError, match=r"does not exist: `grader reset day-01` regenerates it"):
        run_day(course, day, day.lab)
    (tmp_path / "file").write_text("x")
    with pytest.raises(EngineError, match="is a file, not a directory: check the path given with --lab"):
        run_day(course, day, tmp_path / "file")
    (course_dir / "checks" / "day01" / "checks.py").unlink()
    with pytest.raises(EngineError, match="checks for day-01 are not available yet"):
        run_day(course, day, day.lab)


def test_a_failing_check_names_the_failing_checks_of_the_points_it_also_rests_on(course_dir):
    """`depends` in course.toml: counts (E2) also rests on E1, whose check greets fails on
    the lab, so counts says to fix greets first; a passing run names nothing."""
    from grader.course import load_course
    from grader.report.results import failure_lines

    toml = course_dir / "course.toml"
    text = toml.read_text()
    counts = 'id = "counts"\ntitle = "The counts check."\nexercises = ["E2"]\n'
    assert counts in text
    toml.write_text(text.replace(counts, counts + 'depends = ["E1"]\n'))
    course = load_course(toml)
    day = course.find_day("1")
    result = run_day(course, day, day.lab)
    by_id = {c.id: c for c in result.all_results()}
    assert by_id["counts"].see_first == ("greets",)
    assert by_id["greets"].see_first == () and by_id["polite"].see_first == ()
    first = dict(failure_lines(by_id["counts"]))["first"]
    assert first == ("greets also fails, and this check rests on that code too: if fixing E2 does not make it "
                     "pass, fix greets first")
    assert by_id["counts"].to_dict()["see_first"] == ["greets"]
    solved = run_day(course, day, day.solution)
    assert all(c.see_first == () for c in solved.all_results())


def test_two_checks_resting_on_each_others_point_name_neither_first(course_dir):
    from grader.course import load_course

    toml = course_dir / "course.toml"
    text = toml.read_text()
    for check_id, own, other in (("greets", "E1", "E2"), ("counts", "E2", "E1")):
        entry = f'id = "{check_id}"\ntitle = "The {check_id} check."\nexercises = ["{own}"]\n'
        assert entry in text
        text = text.replace(entry, entry + f'depends = ["{other}"]\n')
    toml.write_text(text)
    course = load_course(toml)
    day = course.find_day("1")
    result = run_day(course, day, day.lab)
    assert {c.id: c.see_first for c in result.all_results() if not c.passed} == \
        {"greets": (), "counts": (), "polite": ()}


def test_children_get_the_default_sigint_when_the_grader_ignores_it():
    """Started as a background job (SIGINT ignored), the grader must not pass the ignore on:
    a check pressing Ctrl-C in the lab's REPL would see nothing happen."""
    import signal
    import subprocess
    import sys

    from grader.engine import children_get_default_sigint

    probe = [sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"]
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert subprocess.run(probe, capture_output=True, text=True).stdout.strip() == "True"
        with children_get_default_sigint():
            assert subprocess.run(probe, capture_output=True, text=True).stdout.strip() == "False"
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_lab_slow_to_import_is_said_to_be_importing_and_still_graded(course, tmp_path):
    """A lab whose package takes longer than SLOW_IMPORT to import: `on_wait` hears it once,
    with the package and the limit it is given (the CLI's "importing toy ..." line), and the
    lab is graded as usual once it has imported."""
    import shutil

    from grader import engine
    from grader.spawn import scaled

    day = course.find_day("day-01")
    lab = tmp_path / "slow"
    shutil.copytree(day.solution, lab)
    init = lab / "toy" / "__init__.py"
    init.write_text(f"import time\ntime.sleep({engine.SLOW_IMPORT + 1})\n" + init.read_text())
    heard = []
    result = run_day(course, day, lab, on_wait=lambda package, seconds: heard.append((package, seconds)))
    assert heard == [("toy", round(max(scaled(engine.PROBE_TIMEOUT), engine.PROBE_FLOOR)))]
    assert result.blocked is None and result.all_core_passed
