"""The real course: the committed labs are what the generator makes, and `grader verify` holds.

`grader verify` is the instructor's proof that every lab is gradable: the solution
passes every check, the untouched lab scores exactly its scaffold count, and reverting
any one exercise point fails exactly the checks course.toml maps to it.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from grader import scaffold
from grader.cli import app
from grader.course import load_course

ROOT = Path(__file__).resolve().parents[2]


def test_committed_labs_equal_the_generated_labs():
    course = load_course(ROOT / "course.toml")
    for day in course.days:
        drift = scaffold.diff_lab(day)
        assert not drift, f"{day.lab} differs from what `python -m grader.scaffold {day.id}` makes:\n" + "\n".join(
            map(str, drift))


def test_labs_carry_no_markers():
    for path in (ROOT / "labs").rglob("*.py"):
        text = path.read_text()
        assert "BEGIN SOLUTION" not in text and "BEGIN SCAFFOLD" not in text, path


def test_grader_verify_holds_for_the_whole_course():
    result = CliRunner().invoke(app, ["--course", str(ROOT / "course.toml"), "verify"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "all 12 items hold" in result.stdout
