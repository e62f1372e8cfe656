"""`grader release` on a synthetic kit: what the student edition holds and lacks, where it
may be written (and what it never deletes), and what its grader still does: check,
reset from its pristine labs, `verify --student`, and clear refusals for the rest."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import integrity, release
from grader.cli import app
from grader.course import load_course
from grader.scaffold import trees
from tests.grader.conftest import DAY01_CHECKS, SOURCE, generate_all, manifest, write_tree


@pytest.fixture
def cli():
    runner = CliRunner()
    return lambda *args, input=None: runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def edition(toy_kit, tmp_path, cli) -> Path:
    out = tmp_path / "student"
    result = cli("release", "-o", out)
    assert result.exit_code == 0, result.stderr
    return out


def files_of(folder: Path) -> set[str]:
    return set(trees.tree_files(folder))


def as_edition(out: Path, monkeypatch):
    """Make the grader in this process the edition's own (its package is what --ci and
    verify --student compare with the edition's record)."""
    monkeypatch.setattr(integrity, "PACKAGE", out / "grader")
    monkeypatch.setattr(integrity, "RECORD", out / "grader" / "shipped.sha256")
    monkeypatch.setenv("GRADER_COURSE", str(out / "course.toml"))


def test_the_edition_holds_the_labs_and_the_grader_and_no_solution(toy_kit, edition):
    names = files_of(edition)
    assert not {n for n in names if n.startswith(("solutions/", "source/", "tests/", "docs/"))}
    assert {"course.toml", "README.md", "README.zh.md", "pyproject.toml", ".gitignore",
            "grader/shipped.sha256", "grader/edition/edition.toml", "checks/day01/checks.py"} <= names
    assert not {n for n in names if n.startswith("grader/templates/")}
    lab = edition / "labs/day-01-hello"
    assert trees.read_tree(lab) == trees.read_tree(toy_kit / "labs/day-01-hello")
    assert trees.read_tree(edition / "grader/edition/labs/day-01-hello") == trees.read_tree(lab)
    solution_line = 'return f"hello {name}"'
    assert not [n for n in names if solution_line in (edition / n).read_text(encoding="utf-8", errors="replace")]


def test_its_manifest_is_the_kits_without_source_or_solutions(toy_kit, edition):
    course = load_course(edition / "course.toml")
    assert course.is_student_edition and course.source is None
    assert course.pristine == edition / "grader/edition/labs"
    assert [d.id for d in course.days] == ["day-01"] and course.days[0].solution is None
    kit = load_course(toy_kit / "course.toml")
    assert course.days[0].checks_core == kit.days[0].checks_core
    assert course.days[0].scaffold_passes == kit.days[0].scaffold_passes == 1
    data = tomllib.loads((edition / "course.toml").read_text(encoding="utf-8"))
    assert "source" not in data["course"] and "solution" not in data["days"][0]
    listed = tomllib.loads((edition / "grader/edition/edition.toml").read_text(encoding="utf-8"))
    assert set(listed["files"]) == files_of(edition) and listed["days"] == ["day-01"]


def test_its_record_is_its_own(edition):
    assert integrity.tampered(edition, edition / "grader/shipped.sha256", package=edition / "grader") == []
    with open(edition / "grader/edition/labs/day-01-hello/toy/greet.py", "a") as handle:
        handle.write("# a pristine copy edited\n")
    problems = integrity.tampered(edition, edition / "grader/shipped.sha256", package=edition / "grader")
    assert [str(p) for p in problems] == ["grader/edition/labs/day-01-hello/toy/greet.py (changed)"]


def test_the_readme_links_every_released_lab_sheet(toy_kit, edition):
    text = (edition / "README.md").read_text(encoding="utf-8")
    assert "grader check day-01" in text and "`1/3 passed`" in text
    assert "| 1 | `day-01-hello` | Hello | 3 + 1 bonus |" in text   # a lab without a sheet: no link
    assert "`TOY_MOCK=1 python -m toy`" in text and "`TOY_API_KEY`" in text
    assert "{{" not in text and "{{" not in (edition / "README.zh.md").read_text(encoding="utf-8")
    assert "[中文说明](README.zh.md)" in text


# --------------------------------------------------------------------------- where it may be written

def test_a_non_empty_folder_is_refused_without_force(toy_kit, tmp_path, cli):
    out = tmp_path / "taken"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    result = cli("release", "-o", out)
    assert result.exit_code == 2 and "is not empty" in result.stderr and "--force" in result.stderr
    assert files_of(out) == {"notes.txt"}


def test_a_fresh_repository_counts_as_empty(toy_kit, tmp_path, cli):
    out = tmp_path / "repo"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert cli("release", "-o", out).exit_code == 0
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"


def test_force_replaces_the_earlier_edition_and_nothing_else(toy_kit, edition, cli):
    (edition / "notes.txt").write_text("the instructor's own notes\n")
    (edition / "labs/day-01-hello/toy/greet.py").write_text("edited in the students' repository\n")
    stale = edition / "checks/day01/old_helper.py"    # as if an earlier edition had shipped it
    stale.write_text("x = 1\n")
    listing = edition / "grader/edition/edition.toml"
    listing.write_text(listing.read_text(encoding="utf-8").replace(
        'files = [\n', 'files = [\n    "checks/day01/old_helper.py",\n'), encoding="utf-8")
    result = cli("release", "-o", edition, "--force")
    assert result.exit_code == 0, result.stderr
    assert "removed 1 file(s)" in result.stdout and not stale.exists()
    assert (edition / "notes.txt").read_text() == "the instructor's own notes\n"
    assert (edition / "labs/day-01-hello/toy/greet.py").read_bytes() == \
        (toy_kit / "labs/day-01-hello/toy/greet.py").read_bytes()


def test_force_never_overwrites_a_file_no_edition_wrote(toy_kit, tmp_path, cli):
    out = tmp_path / "theirs"
    out.mkdir()
    (out / "README.md").write_text("a README of someone else's\n")
    result = cli("release", "-o", out, "--force")
    assert result.exit_code == 2 and "README.md was not written by an earlier edition" in result.stderr
    assert files_of(out) == {"README.md"} and (out / "README.md").read_text() == "a README of someone else's\n"


@pytest.mark.parametrize("place", [".", "labs/new", ".."])
def test_never_into_the_kit_or_a_parent_of_it(toy_kit, cli, place):
    before = files_of(toy_kit)
    result = cli("release", "-o", toy_kit / place)
    assert result.exit_code == 2 and "outside" in result.stderr
    assert files_of(toy_kit) == before


def test_through_releases_the_days_up_to_it(tmp_path, monkeypatch, cli):
    from tests.kit.conftest import make_course  # two days, the second with a module of its own

    course = make_course(tmp_path / "two", two_days=True)
    edition = release.build(course, release.released_days(course, "day-01"))
    assert not [n for n in edition.files if "day-02" in n or "day02" in n or n.startswith("solutions/")]
    assert 'id = "day-02"' not in edition.files["course.toml"].decode()
    assert "grader/checks/day01/checks.py" in edition.files   # its own checks, not the real kit's
    assert edition.files["grader/checks/day01/checks.py"] == (course.root / "grader/checks/day01/checks.py").read_bytes()
    assert release.find_leaks(course, edition) == []
    whole = release.build(course, release.released_days(course))
    assert "labs/day-02-more/pkg/later.py" in whole.files


# --------------------------------------------------------------------------- its grader

def test_reset_restores_the_pristine_lab_after_a_backup(edition, cli, monkeypatch):
    as_edition(edition, monkeypatch)
    greet = edition / "labs/day-01-hello/toy/greet.py"
    greet.write_text('def greet(name):\n    return f"hi {name}"  # my try\n')
    result = cli("reset", "day-01", "--yes")
    assert result.exit_code == 0, result.stderr
    assert greet.read_bytes() == (edition / "grader/edition/labs/day-01-hello/toy/greet.py").read_bytes()
    (backup,) = (edition / ".grader/backups/day-01").iterdir()
    assert "my try" in (backup / "toy/greet.py").read_text()


def test_verify_student_proves_it_grades_and_the_full_verify_is_refused(edition, cli, monkeypatch):
    as_edition(edition, monkeypatch)
    refused = cli("verify")
    assert refused.exit_code == 2 and "verify --student" in refused.stderr
    proved = cli("verify", "--student")
    assert proved.exit_code == 0, proved.stdout
    assert re.search(r"^day-01 +untouched lab scores 1/3 +ok$", proved.stdout, re.M), proved.stdout
    assert re.search(r"^\* +grader files are the shipped ones +ok +as recorded", proved.stdout, re.M)
    assert "verify: all 2 items hold" in proved.stdout
    checked = cli("check", "day-01", "--ci")
    assert checked.exit_code == 1 and "1/3 passed" in checked.stdout


def test_what_needs_the_solutions_is_refused_in_one_line(edition, cli, monkeypatch):
    as_edition(edition, monkeypatch)
    again = cli("release", "-o", edition.parent / "again")
    assert again.exit_code == 2 and "already the student edition" in again.stderr
    bundle = cli("gradescope", "bundle", "day-01", "-o", edition.parent / "a.zip")
    assert bundle.exit_code == 2 and "instructor's kit" in bundle.stderr
    from grader import scaffold
    assert scaffold.main(["--check"]) == 2
    assert not (edition.parent / "again").exists() and not (edition.parent / "a.zip").exists()


def test_a_verify_student_in_chinese(edition, cli, monkeypatch):
    as_edition(edition, monkeypatch)
    refused = cli("--lang", "zh", "verify")
    assert refused.exit_code == 2 and "学生版" in refused.stderr
    proved = cli("--lang", "zh", "verify", "--student")
    assert proved.exit_code == 0, proved.stdout
    assert re.search(r"^day-01 +未改动的实验得分 1/3 +通过$", proved.stdout, re.M), proved.stdout
    assert "verify：全部 2 项成立" in proved.stdout


# --------------------------------------------------------------------------- no solution code ships

def test_a_solution_line_copied_into_check_data_stops_the_release(tmp_path, monkeypatch, cli):
    """The synthetic solution made long enough to be told from ordinary code, then
    pasted into a helper beside the checks: the release names the file and writes nothing."""
    root = tmp_path / "kit"
    line = 'return f"hello {name}, and welcome to the course"'
    source = dict(SOURCE)
    source["toy/greet.py"] = source["toy/greet.py"].replace('return f"hello {name}"', line)
    write_tree(root / "source", source)
    write_tree(root, {"checks/day01/checks.py": DAY01_CHECKS, "course.toml": manifest(day02=False),
                      "checks/day01/expected.py": f"def reference(name):\n    {line}\n"})
    generate_all(root)
    monkeypatch.setenv("GRADER_COURSE", str(root / "course.toml"))
    out = tmp_path / "student"
    result = cli("release", "-o", out)
    assert result.exit_code == 2, result.stdout
    assert "checks/day01/expected.py line 2 repeats the solution of day-01 E1" in result.stderr
    assert "(source/toy/greet.py line 3: " in result.stderr
    assert not out.exists()
