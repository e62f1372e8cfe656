"""The student edition built in memory: which days it holds, their labs and pristine
copies, the grader package less what students must not get, the sample workspace, the
rewritten manifest, the READMEs, edition.toml and the edition's own integrity record."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import subprocess
from pathlib import Path

from grader import integrity, scaffold
import grader
from grader.course import Course, Day
from grader.i18n import word
from grader.scaffold import trees
from grader.release.layout import (EDITION_FILE, GITIGNORE, PRISTINE_DIR, RECORD_FILE, TEMPLATES, WORKSPACE_DIR,
                                   Edition, ReleaseError)
from grader.release.readmes import student_readmes
from grader.release.student_manifest import student_manifest


def released_days(course: Course, through: str | None = None) -> tuple[Day, ...]:
    """The days up to `through` (a day id, number or slug), or every day."""
    if through is None:
        return tuple(course.days)
    last = course.find_day(through)
    return tuple(day for day in course.days if day.number <= last.number)


# --------------------------------------------------------------------------- building

def build(course: Course, days: tuple[Day, ...] | list[Day]) -> Edition:
    """The student edition of `days` in memory; refuses (ReleaseError) if it cannot be made."""
    if course.is_student_edition:
        raise ReleaseError(word("release.from_edition"))
    if not days:
        raise ReleaseError(word("release.no_days"))
    edition = Edition(tuple(days))
    root = Path(course.root)
    for day in days:
        _add_lab(edition, course, day, root)
    _add_grader(edition, course, days, root)
    if course.workspace is not None:
        for rel in trees.tree_files(Path(course.workspace), course.runtime_dirs):
            path = Path(course.workspace) / rel
            edition.add(f"{WORKSPACE_DIR}/{rel}", path.read_bytes(), _mode(path))
    edition.add("course.toml", student_manifest(course, days).encode("utf-8"))
    for translation in sorted(root.glob("course.*.toml")):
        edition.add(translation.name, translation.read_bytes())
    sheets = {d.id: {rel.rsplit("/", 1)[-1] for rel in edition.files
                     if rel.startswith(f"{PRISTINE_DIR}/{d.slug}/README") and rel.count("/") == 4} for d in days}
    for name, text in student_readmes(course, days, sheets).items():
        edition.add(name, text.encode("utf-8"))
    edition.add("pyproject.toml", project_file(course, "pyproject.toml").read_bytes())
    edition.add(".gitignore", _gitignore(course).encode("utf-8"))
    edition.add(EDITION_FILE, _edition_toml(course, edition).encode("utf-8"))
    edition.add(RECORD_FILE, integrity.record_text(_digests(edition)).encode("utf-8"))
    return edition


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _inside(path: Path, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(Path(folder).resolve())


def _add_lab(edition: Edition, course: Course, day: Day, root: Path) -> None:
    try:
        tree, modes = scaffold.build(course, day, lab=True)
    except (*scaffold.ERRORS, OSError) as exc:
        raise ReleaseError(word("release.cannot_render", day=day.id, error=exc)) from exc
    lab = Path(day.lab)
    if not _inside(lab, root):
        raise ReleaseError(word("release.outside_kit", day=day.id, what="lab", path=lab))
    lab_rel = lab.resolve().relative_to(root.resolve()).as_posix()
    for rel, data in tree.items():
        mode = modes.get(rel, 0o644)
        edition.add(f"{lab_rel}/{rel}", data, mode)
        edition.add(f"{PRISTINE_DIR}/{day.slug}/{rel}", data, mode)


def _add_grader(edition: Edition, course: Course, days, root: Path) -> None:
    """The grader package, without caches, its record, its templates and the checks
    folders of days not released; checks folders outside the package at their place."""
    package = integrity.PACKAGE
    released = {Path(d.checks_dir).resolve() for d in days}
    held_back = [Path(d.checks_dir).resolve() for d in course.days
                 if Path(d.checks_dir).resolve() not in released]
    # the package's checks folder holds one folder per day: only the released days' go
    checks = package / "checks"
    held_back += [folder.resolve() for folder in (checks.iterdir() if checks.is_dir() else ())
                  if folder.is_dir() and folder.resolve() not in released]
    for day in days:
        if not (Path(day.checks_dir) / "checks.py").is_file():
            raise ReleaseError(word("release.no_checks", day=day.id, folder=day.checks_dir))
    skipped = [TEMPLATES.resolve(), (package / "edition").resolve(), *held_back]
    for path in sorted(package.rglob("*")):
        if not path.is_file() or integrity.SKIP_PARTS & set(path.parts) or path.suffix in trees.IGNORED_SUFFIXES:
            continue
        resolved = path.resolve()
        if resolved == integrity.RECORD.resolve() or any(resolved.is_relative_to(s) for s in skipped):
            continue
        edition.add("grader/" + path.relative_to(package).as_posix(), path.read_bytes(), _mode(path))
    for day in days:
        folder = Path(day.checks_dir)
        if _inside(folder, package):
            continue
        if not _inside(folder, root):
            raise ReleaseError(word("release.outside_kit", day=day.id, what="checks_dir", path=folder))
        base = folder.resolve().relative_to(root.resolve()).as_posix()
        for rel in trees.tree_files(folder):
            edition.add(f"{base}/{rel}", (folder / rel).read_bytes(), _mode(folder / rel))


def project_file(course: Course, name: str) -> Path:
    """The kit's pyproject.toml: beside course.toml, else beside the grader package."""
    for folder in (Path(course.root), integrity.PACKAGE.parent):
        if (folder / name).is_file():
            return folder / name
    raise ReleaseError(word("release.no_project", name=name, root=course.root))


def _gitignore(course: Course) -> str:
    lines: list[str] = []
    for folder in (Path(course.root), integrity.PACKAGE.parent):
        if (folder / ".gitignore").is_file():
            lines = (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
            break
    lines += [entry for entry in GITIGNORE if entry not in lines]
    return "\n".join(lines) + "\n"


def _digests(edition: Edition) -> dict[str, str]:
    """The record `grader check --ci` compares the edition with: what integrity.guarded_files
    names in it (course.toml and its translations, the grader package, the sample workspace)."""
    return {name: hashlib.sha256(data).hexdigest() for name, data in edition.files.items()
            if name != RECORD_FILE and (name == "course.toml" or re.fullmatch(r"course\.[^/]+\.toml", name)
                                        or name.startswith("grader/"))}


def _source_commit(root: Path) -> str:
    """The kit's git commit, with `+changes` when its tree differs from it; '' outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _edition_toml(course: Course, edition: Edition) -> str:
    files = sorted(set(edition.files) | {EDITION_FILE, RECORD_FILE})
    lines = ["# The student edition, as `grader release` made it. Do not edit: `grader check --ci`",
             "# compares the grader's files with grader/shipped.sha256, and a later release with",
             "# --force replaces (or removes) exactly the files listed here.",
             f"course = {_toml_string(course.name)}",
             f"kit_version = {_toml_string(grader.__version__)}",
             f"source_commit = {_toml_string(_source_commit(Path(course.root)))}",
             "days = [" + ", ".join(_toml_string(d.id) for d in edition.days) + "]",
             "files = ["]
    lines += [f"    {_toml_string(name)}," for name in files]
    lines.append("]")
    return "\n".join(lines) + "\n"
