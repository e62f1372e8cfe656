"""The real kit's student edition, end to end as an instructor and a student meet it:
the kit README's "Releasing to students" recipe (`grader release`, `git init`, commit;
only the destination is a temp dir), a fresh `git clone`, the edition README's install
command in that clone (a new venv, `pip install -e .`, then `grader check day-07`: the
untouched lab scores 4/11), and a search of every file of the clone for the solution
regions of source/ (none may appear, except in the labs of the days after a region's
own: day N's lab is built on days 1 to N-1's solutions)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import release, scaffold
from grader.course import load_course
from grader.scaffold import markers, trees
from tests.release.conftest import ROOT, child_env

COURSE = load_course(ROOT / "course.toml")
LAST = COURSE.days[-1]  # the edition holds every day; its README grades the last
LONG = release.LONG_LINE

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(*args, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=child_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


GIT_PEOPLE = dict(GIT_AUTHOR_NAME="Instructor", GIT_AUTHOR_EMAIL="instructor@example.invalid",
                  GIT_COMMITTER_NAME="Instructor", GIT_COMMITTER_EMAIL="instructor@example.invalid")


def readme_recipe(section: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    body = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.S | re.M).group(1)
    return re.findall(r"```sh\n(.*?)```", body, re.S)[0]


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The edition as students get it: released and committed by the README's recipe, cloned afresh."""
    base = tmp_path_factory.mktemp("edition")
    out = base / "agent-lab-student"
    recipe = readme_recipe("Releasing to students")
    assert recipe.count("../agent-lab-student") == 2
    grader_bin = Path(sys.executable).parent   # where this venv's `grader` is
    env = child_env(PATH=f"{grader_bin}{os.pathsep}{os.environ.get('PATH', '')}", **GIT_PEOPLE)
    made = subprocess.run(["bash", "-c", "set -eu\n" + recipe.replace("../agent-lab-student", str(out))],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    assert f"wrote the student edition of agent-lab ({COURSE.days[0].id} .. {LAST.id};" in made.stdout
    assert git("status", "--porcelain", cwd=out) == ""
    git("clone", "-q", str(out), str(base / "clone"), cwd=base)
    return base / "clone"


def test_the_readme_command_installs_the_edition_and_grades_the_last_day(clone, python3_on_path):
    """The first command of the students' README, word for word, in a fresh venv: it grades
    the edition's last day, whose untouched lab scores its scaffold count."""
    readme = (clone / "README.md").read_text(encoding="utf-8")
    command = re.findall(r"```sh\n(.*?)```", readme, re.S)[0].strip()
    assert command == f"python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/grader check {LAST.id}"
    done = subprocess.run(["bash", "-c", command], cwd=clone, env=python3_on_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]  # on purpose: the holes are the student's
    passes = f"{LAST.scaffold_passes}/{len(LAST.checks_core)} passed"
    assert passes in done.stdout, done.stdout[-1500:]
    assert f"`{passes}`" in readme
    # the edition's grader, installed from the clone, holds itself to its own record
    refused = subprocess.run([str(clone / ".venv/bin/grader"), "verify"], cwd=clone, env=python3_on_path,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "verify --student" in refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    import_check = subprocess.run([str(clone / ".venv/bin/python"), "-c", "import grader; print(grader.__file__)"],
                                  cwd="/", env=python3_on_path, capture_output=True, text=True, timeout=60)
    assert Path(import_check.stdout.strip()).resolve().is_relative_to(clone.resolve())


def test_the_clone_has_no_solutions_source_tests_or_markers(clone):
    names = trees.tree_files(clone)
    assert not [n for n in names if n.split("/")[0] in ("solutions", "source", "tests", "docs", "benchmarks", ".ci")]
    assert {"course.toml", "course.zh.toml", "README.md", "README.zh.md", "pyproject.toml"} <= set(names)
    assert {f"labs/{d.slug}/README.zh.md" for d in COURSE.days} <= set(names)
    marked = [n for n in names if not n.startswith("grader/") or "/checks/" in n or "/edition/" in n
              if markers.has_markers((clone / n).read_text(encoding="utf-8", errors="replace"))]
    assert not marked, f"files with day or region markers: {marked}"
    edition = load_course(clone / "course.toml")
    assert edition.is_student_edition and [d.id for d in edition.days] == [d.id for d in COURSE.days]
    assert [d.scaffold_passes for d in edition.days] == [d.scaffold_passes for d in COURSE.days]
    for day in COURSE.days:   # the labs and their pristine copies are exactly the generated labs
        tree, _ = scaffold.build(COURSE, day, lab=True)
        assert trees.read_tree(clone / "labs" / day.slug) == tree
        assert trees.read_tree(clone / "grader/edition/labs" / day.slug) == tree


def _distinctive_lines() -> dict[tuple[str, str], set[str]]:
    """Every exercise region of source/, as grader/scaffold/markers.py parses it: its solution's lines
    of LONG characters or more that no lab of its day or before shows and that the grader's
    own code outside the days' checks folders does not use for its own ends."""
    source = Path(COURSE.source)
    regions: dict[tuple[str, str], set[str]] = {}
    for rel in trees.tree_files(source, COURSE.runtime_dirs):
        text = (source / rel).read_text(encoding="utf-8")
        if not markers.has_markers(text):
            continue
        for day in COURSE.days:
            for region in markers.regions(text, day=day.number, file=rel):
                regions.setdefault((region.day, region.id), set()).update(
                    line.strip() for line in region.solution if len(line.strip()) >= LONG)
    shown: dict[str, set[str]] = {}
    seen: set[str] = set()
    for day in COURSE.days:
        tree, _ = scaffold.build(COURSE, day, lab=True)
        for data in tree.values():
            seen |= {line.strip() for line in data.decode("utf-8", "replace").splitlines()}
        shown[day.id] = set(seen)
    checks = [Path(d.checks_dir).resolve() for d in COURSE.days]
    machinery = set()
    for path in (ROOT / "grader").rglob("*.py"):
        if not any(path.resolve().is_relative_to(c) for c in checks):
            machinery |= {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    assert len(regions) == sum(len(d.exercises) for d in COURSE.days)
    return {key: lines - shown[key[0]] - machinery for key, lines in regions.items()}


def test_no_solution_region_appears_in_the_clone(clone):
    distinct = _distinctive_lines()
    assert sum(map(len, distinct.values())) > 60   # the search has something to find
    number = {d.id: d.number for d in COURSE.days}
    later_labs = {d.number: (f"labs/{d.slug}/", f"grader/edition/labs/{d.slug}/") for d in COURSE.days}
    found = []
    for name in trees.tree_files(clone):
        try:
            lines = {line.strip() for line in (clone / name).read_text(encoding="utf-8").splitlines()}
        except UnicodeDecodeError:
            continue
        for (day_id, exercise), solution in distinct.items():
            allowed = [p for n, prefixes in later_labs.items() if n > number[day_id] for p in prefixes]
            if name.startswith(tuple(allowed)):
                continue
            found += [f"{name}: {day_id} {exercise}: {line}" for line in solution & lines]
    assert not found, "\n".join(found)
    # and the release's own search (lines in a row too) agrees about what landed on disk
    edition = release.Edition(tuple(COURSE.days))
    for name in trees.tree_files(clone):
        edition.add(name, (clone / name).read_bytes())
    assert release.find_leaks(COURSE, edition) == []


def test_the_search_finds_a_solution_pasted_into_the_edition():
    """One line of day-07 E2's solution pasted into a check helper, and two short ones in a
    row into a sheet: both found, each naming the region; a later lab built on it is not."""
    edition = release.build(COURSE, tuple(COURSE.days[:1]))
    regions = release.solution_regions(COURSE)
    e2 = [text for _, text in regions[("day-07", "E2")].lines]
    longest = max(e2, key=len)
    edition.add("grader/checks/day01/helper.py", f"def expected():\n    {longest}\n".encode())
    e1 = [text for _, text in regions[("day-01", "E3")].lines]
    edition.add("labs/day-01-repl-gateway/NOTES.md", ("\n".join(e1[:2]) + "\n").encode())
    leaks = release.find_leaks(COURSE, edition)
    named = {(leak.path, leak.day, leak.exercise) for leak in leaks}
    assert ("grader/checks/day01/helper.py", "day-07", "E2") in named, leaks
    assert ("labs/day-01-repl-gateway/NOTES.md", "day-01", "E3") in named, leaks
    assert all(leak.source.endswith(".py") and leak.source_line > 0 for leak in leaks)
