"""Every command and exit code, through typer's CliRunner (stdout and stderr apart)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from grader.cli import app

from .conftest import manifest


@pytest.fixture
def cli():
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_check_on_the_lab_exits_1_with_a_report(cli, course_dir):
    result = cli("check", "1")
    assert result.exit_code == 1, result.stderr
    out = result.stdout
    assert "1/3 passed" in out and "bonus 0/1" in out
    assert "expected: hello Ann" in out and "hint: look closer" in out
    assert "more: grader hint day-01 greets" in out
    assert "next: E1 in toy/greet.py (fixes 1 check)" in out
    assert "\033[" not in out  # not a TTY: no colour
    # Nothing on stderr but, on a machine without bubblewrap, the one line that says so.
    assert [line for line in result.stderr.splitlines()
            if not line.startswith("note: the lab's children run without a view of their own")] == []


def test_check_on_the_solution_exits_0(cli, course_dir):
    result = cli("check", "day-01-hello", "--lab", course_dir / "solutions/day-01-hello")
    assert result.exit_code == 0, result.stderr
    assert "3/3 passed" in result.stdout and "next:" not in result.stdout


def test_check_json_is_the_only_stdout(cli, course_dir):
    result = cli("check", "01", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["day"], data["passed"], data["total"]) == ("day-01", 1, 3)


def test_check_writes_junit_and_gradescope(cli, course_dir, tmp_path):
    result = cli("check", "1", "--junit", tmp_path / "out/junit.xml", "--gradescope", tmp_path / "results.json")
    assert result.exit_code == 1
    cases = ET.parse(tmp_path / "out/junit.xml").getroot().iter("testcase")
    assert [c.get("name") for c in cases] == ["runs", "greets", "counts", "polite"]
    assert json.loads((tmp_path / "results.json").read_text())["score"] == 1


def test_check_only_and_keep_print_reproduce_lines(cli, course_dir):
    result = cli("check", "1", "--only", "greets", "--keep")
    assert result.exit_code == 1
    assert "0/1 passed" in result.stdout
    repro = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("reproduce:")]
    assert len(repro) == 1 and repro[0].endswith("python -m toy greet Ann")
    lab = course_dir / "labs" / "day-01-hello"
    assert f"PYTHONPATH={lab}" in repro[0]  # the student's own lab, not the graded copy
    kept = [line for line in result.stdout.splitlines() if line.startswith("scratch directories kept in ")]
    assert kept
    import pathlib
    import shutil

    from grader.checkkit.context import neutral

    root = pathlib.Path(kept[0].removeprefix("scratch directories kept in "))
    assert (root / "work" / neutral("greets")).is_dir()  # the check's scratch dir, under a name that says nothing
    shutil.rmtree(root)


@pytest.mark.parametrize("args, fragments", [
    (["check", "9"], ["unknown day '9'", "Known days: day-01, day-02"]),
    (["check", "1", "--only", "nope"], ["no check 'nope'", "runs, greets, counts, polite"]),
    (["hint", "1", "nope"], ["has no check 'nope'"]),
])
def test_usage_errors_exit_2_on_stderr(cli, course_dir, args, fragments):
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_lab_names_the_path_and_reset(cli, course_dir):
    lab = course_dir / "labs/day-01-hello"
    import shutil

    shutil.rmtree(lab)
    result = cli("check", "1")
    assert result.exit_code == 2
    assert str(lab) in result.stderr and "grader reset day-01" in result.stderr
    lab.write_text("not a dir")
    result = cli("check", "1")
    assert result.exit_code == 2 and "is a file, not a directory" in result.stderr


def test_missing_checks_module_is_not_available_yet(cli, course_dir):
    (course_dir / "checks/day01/checks.py").unlink()
    result = cli("check", "1")
    assert result.exit_code == 2
    assert "checks for day-01 are not available yet" in result.stderr


def test_broken_manifest_exits_2_with_the_loaders_message(cli, course_dir):
    (course_dir / "course.toml").write_text(manifest().replace('kind = "trap"', 'kind = "puzzle"'))
    result = cli("list")
    assert result.exit_code == 2
    assert "kind 'puzzle'" in result.stderr and "Traceback" not in result.stderr


def test_course_option_points_at_a_manifest(cli, course_dir, monkeypatch):
    monkeypatch.delenv("GRADER_COURSE")
    result = cli("--course", course_dir, "list")
    assert result.exit_code == 0 and "day-01" in result.stdout


def test_hint_progression_and_list_after_a_run(cli, course_dir):
    assert "not checked yet" in cli("list").stdout
    cli("check", "1")  # shows hint 1 of each failing check
    first = cli("hint", "1", "greets")
    assert first.exit_code == 0 and "greets (hint 2 of 3)" in first.stdout and "the concept" in first.stdout
    second = cli("hint", "1", "greets")
    assert "hint 3 of 3" in second.stdout and "almost the answer" in second.stdout
    assert "more:" not in second.stdout
    third = cli("hint", "1", "greets")
    assert "already shown" in third.stdout and "almost the answer" in third.stdout
    # without a check: the failing core checks of the last run, each at the level it is at; nothing moves
    state = (course_dir / ".grader/state.json").read_text()
    every = cli("hint", "1").stdout
    assert "greets (hint 3 of 3)" in every and "counts (hint 1 of 3)" in every, every
    assert "runs (" not in every and "polite (" not in every   # passed / bonus: not shown
    assert "grader hint day-01 counts" in every and "nothing was moved" in every
    assert "Bonus checks that did not pass: polite" in every
    assert (course_dir / ".grader/state.json").read_text() == state
    assert "counts (hint 1 of 3)" in cli("hint", "1").stdout    # still: plain hint moves nothing
    listing = cli("list").stdout
    assert "day-01  Hello  [last: 1/3 passed (" in listing and "day-02  Every status  [not checked yet]" in listing
    # the report now shows the deepest level the student asked for
    assert "hint: almost the answer" in cli("check", "1", "--only", "greets").stdout


def test_hint_without_a_run_covers_every_core_check(cli, course_dir):
    out = cli("hint", "day-01").stdout
    assert "has not been checked yet" in out
    for check_id in ("runs", "greets", "counts"):
        assert f"{check_id} (hint 1 of 3)" in out
    assert "polite" not in out                      # a bonus check: only when named
    assert not (course_dir / ".grader/state.json").exists()
    named = cli("hint", "day-01", "polite")
    assert named.exit_code == 0 and "polite (hint 1 of 3)" in named.stdout


def test_hint_when_everything_passed(cli, course_dir):
    import shutil
    lab = course_dir / "labs/day-01-hello"
    shutil.rmtree(lab)
    shutil.copytree(course_dir / "solutions/day-01-hello", lab)  # the student finished the day
    cli("check", "1")
    result = cli("hint", "1")
    assert result.exit_code == 0 and "no hint needed" in result.stdout


def test_grading_another_directory_leaves_progress_and_hints_alone(cli, course_dir):
    cli("check", "1")                       # the student's own lab: recorded, hint 1 shown
    cli("hint", "1", "greets")              # ... and hint 2 asked for
    state = (course_dir / ".grader/state.json").read_text()
    result = cli("check", "1", "--lab", course_dir / "solutions/day-01-hello")
    assert result.exit_code == 0
    assert (course_dir / ".grader/state.json").read_text() == state
    assert "1/3 passed" in cli("list").stdout


def test_python_dash_m_grader_runs_the_cli(course_dir):
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    done = subprocess.run([sys.executable, "-m", "grader", "list"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "day-01" in done.stdout


def test_only_keeps_the_contract_numbers(cli, course_dir):
    result = cli("check", "1", "--only", "counts")
    rows = [line for line in result.stdout.splitlines() if " counts " in line]
    assert rows and rows[0].split()[1] == "3", result.stdout  # counts is the third check of day-01


def test_the_live_line_says_what_a_slow_import_is_waiting_for(course, monkeypatch):
    """On a terminal, a lab still importing after a moment gets a line naming the package and
    the limit, where the running line stood (not silence until the limit)."""
    import io

    from grader.commands import check

    monkeypatch.setattr(check, "is_terminal", lambda: True)
    live = check._LiveLines(course.find_day("day-01"), False, 4)
    live.stream = io.StringIO()
    live.importing("toy", 20)
    shown = live.stream.getvalue()
    assert shown.startswith("\r") and "day-01: importing toy ... (a lab that takes more than 20 s" in shown
    live.clear()
    assert live.stream.getvalue().endswith("\r\033[K")


def test_a_check_run_inside_another_program_adopts_no_orphans(cli, course_dir):
    """Run as a library (here, a test suite's CliRunner), `check` never makes its host the
    subreaper that kills adopted orphans: every other child of the host would count as one
    (the suite's own grading servers were killed that way)."""
    from grader.spawn import groups

    assert cli("check", "1").exit_code == 1
    assert not groups.adopting()
