"""`grader check --ci` refuses to grade with checks or a manifest that differ from the shipped ones."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import integrity
from grader.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_record_is_up_to_date():
    problems = integrity.tampered(ROOT)
    assert not problems, (
        "grader/shipped.sha256 is out of date for: " + ", ".join(map(str, problems))
        + "\nrefresh it with: python -m grader.integrity --update")


@pytest.fixture
def kit(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the course root whose grader package the integrity module points at."""
    root = tmp_path / "kit"
    shutil.copytree(ROOT / "grader", root / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "source", root / "source", ignore=shutil.ignore_patterns("__pycache__", ".sessions"))
    shutil.copytree(ROOT / "solutions", root / "solutions", ignore=shutil.ignore_patterns("__pycache__", ".sessions"))
    shutil.copy2(ROOT / "course.toml", root / "course.toml")
    monkeypatch.setattr(integrity, "PACKAGE", root / "grader")
    monkeypatch.setattr(integrity, "RECORD", root / "grader" / "shipped.sha256")
    integrity.write_record(root, root / "grader" / "shipped.sha256")  # as released
    return root


def test_a_pristine_copy_has_nothing_to_report(kit):
    assert integrity.tampered(kit, kit / "grader" / "shipped.sha256") == []


@pytest.mark.parametrize("victim", ["grader/checks/day07/checks.py", "course.toml", "grader/spawn/child.py",
                                    "source/agent/workspace/test_calc.py"])
def test_a_changed_file_is_named(kit, victim):
    with open(kit / victim, "a") as handle:
        handle.write("\n# always pass\n")
    problems = integrity.tampered(kit, kit / "grader" / "shipped.sha256")
    assert [str(p) for p in problems] == [f"{victim} (changed)"]


def test_an_added_checks_file_is_named(kit):
    (kit / "grader" / "checks" / "conftest.py").write_text("import pytest\n")
    problems = integrity.tampered(kit, kit / "grader" / "shipped.sha256")
    assert [str(p) for p in problems] == ["grader/checks/conftest.py (not shipped)"]


def test_check_ci_exits_3_and_names_the_file(kit, monkeypatch):
    with open(kit / "course.toml", "a") as handle:
        handle.write("\n# edited\n")
    result = CliRunner().invoke(app, ["--course", str(kit / "course.toml"), "check", "day-07", "--ci"])
    assert result.exit_code == 3
    assert "course.toml (changed)" in result.stderr and "pristine" in result.stderr
