"""`grader reset`, `grader restore` and `grader verify` through the CLI: confirmation,
backups first, refusals that lose nothing (synthetic course; times frozen for names)."""

from __future__ import annotations

import pytest
from freezegun import freeze_time
from typer.testing import CliRunner

from grader.cli import app


@pytest.fixture
def cli():
    runner = CliRunner()
    return lambda *args, input=None: runner.invoke(app, [str(a) for a in args], input=input)


def student_edit(course_dir):
    greet = course_dir / "labs/day-01-hello/toy/greet.py"
    greet.write_text('def greet(name):\n    return f"hello {name}"  # my fix\n')
    return greet


def backups(course_dir):
    root = course_dir / ".grader/backups/day-01"
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_reset_asks_first_and_changes_nothing_on_no(cli, course_dir):
    greet = student_edit(course_dir)
    result = cli("reset", "day-01", input="n\n")
    assert result.exit_code == 1
    assert "will be backed up" in result.stdout and "nothing changed" in result.stdout
    assert "my fix" in greet.read_text() and backups(course_dir) == []


def test_reset_backs_up_then_regenerates_and_restore_brings_the_work_back(cli, course_dir):
    greet = student_edit(course_dir)
    with freeze_time("2026-11-29 10:22:33"):
        result = cli("reset", "1", "--yes")
    assert result.exit_code == 0, result.stderr
    assert backups(course_dir) == ["20261129T102233Z"]
    assert "bring it back with: grader restore day-01 20261129T102233Z" in result.stdout
    assert "[BACKUP]" not in result.stdout and "DAY" not in result.stdout
    assert "my fix" not in greet.read_text()  # the lab is the generated one again
    assert "my fix" in (course_dir / ".grader/backups/day-01/20261129T102233Z/toy/greet.py").read_text()

    listing = cli("restore", "day-01")
    assert listing.exit_code == 0 and "20261129T102233Z" in listing.stdout

    with freeze_time("2026-11-29 10:30:00"):
        restored = cli("restore", "day-01", "20261129T102233Z", "--yes")
    assert restored.exit_code == 0, restored.stderr
    assert "my fix" in greet.read_text()
    # the lab was untouched since the reset: nothing to back up before the restore
    assert "the lab is untouched, nothing to back up" in restored.stdout
    assert backups(course_dir) == ["20261129T102233Z"]
    greet.write_text(greet.read_text() + "# more work\n")
    with freeze_time("2026-11-29 10:40:00"):
        again = cli("restore", "day-01", "20261129T102233Z", "--yes")
    assert again.exit_code == 0, again.stderr
    assert backups(course_dir) == ["20261129T102233Z", "20261129T104000Z"]  # an edited lab is kept first
    assert "undo with: grader restore day-01 20261129T104000Z" in again.stdout


def test_reset_all_needs_no_day(cli, course_dir):
    result = cli("reset", "--all", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "day-01" in result.stdout and "day-02" in result.stdout


@pytest.mark.parametrize("args, fragment", [
    (("reset",), "name one day"),
    (("reset", "day-01", "--all"), "name one day"),
    (("reset", "day-99", "--yes"), "day-99"),
    (("restore", "day-01", "20990101T000000Z", "--yes"), "no backups of day-01"),
])
def test_refusals_exit_2_and_touch_nothing(cli, course_dir, args, fragment):
    greet = student_edit(course_dir)
    result = cli(*args)
    assert result.exit_code == 2
    assert fragment in result.stderr and "Traceback" not in result.stderr
    assert "my fix" in greet.read_text()


def test_reset_refuses_a_lab_that_is_a_file(cli, course_dir):
    import shutil

    lab = course_dir / "labs/day-01-hello"
    shutil.rmtree(lab)
    lab.write_text("not a directory, but the student's file all the same\n")
    result = cli("reset", "day-01", "--yes")
    assert result.exit_code == 2 and "file" in result.stderr
    assert lab.read_text().startswith("not a directory")


def test_verify_fails_with_a_table_when_a_lab_drifted(cli, course_dir):
    student_edit(course_dir)  # the committed lab no longer equals the generated one
    result = cli("verify", "day-01")
    assert result.exit_code == 1
    assert "solution and lab equal the generated ones" in result.stdout and "greet.py" in result.stdout


def test_verify_takes_several_days_and_names_each_once(cli, course_dir):
    both = cli("verify", "day-01", "2", "1")
    one = cli("verify", "1")
    assert both.stdout.count("day-02") >= 1 and "day-02" not in one.stdout
    assert both.stdout.count("day-01") == one.stdout.count("day-01") >= 1
    assert both.exit_code == 1  # day-02's checks fail its solution on purpose (every status)
