"""Tamper detection for CI: the grader refuses to grade with checks it did not ship.

A submission graded in CI may carry its own copy of the kit. `grader check --ci`
compares the manifest, every checks module and fixture, the grader's own code and the
sample workspace every check copies
with the sha256 digests recorded in `grader/shipped.sha256` when the kit was
released, and stops with exit status 3 naming the first files that differ.

Instructors refresh the record after changing the grader or course.toml:

    python -m grader.integrity --update
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
RECORD = PACKAGE / "shipped.sha256"
SKIP_PARTS = {"__pycache__", ".pytest_cache"}


@dataclass(frozen=True)
class Tampered:
    path: str      # relative to the course root
    reason: str    # "changed", "missing", "not shipped"

    def __str__(self) -> str:
        return f"{self.path} ({self.reason})"


def _workspace(course_root: Path) -> list[Path]:
    """The sample workspace the checks copy for every child (course.toml `workspace`)."""
    from grader.course import CourseError, load_course
    try:
        workspace = load_course(course_root / "course.toml").workspace
    except CourseError:
        return []  # a broken manifest is reported as changed anyway
    return [workspace] if workspace is not None else []


def guarded_files(course_root: Path, package: Path | None = None) -> list[Path]:
    """course.toml and its translations, every file of the grader package and of the sample workspace,
    except caches and the record itself. `package`: the grader package to look at (this one,
    or that of a student edition `grader release` is writing)."""
    package = PACKAGE if package is None else Path(package)
    files = [course_root / "course.toml"]
    files += sorted(course_root.glob("course.*.toml"))  # its translations (course.zh.toml)
    record = package / RECORD.name
    for folder in (Path(package), *_workspace(course_root)):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path != record and not SKIP_PARTS & set(path.parts) and path.suffix != ".pyc":
                files.append(path)
    return files


def _relative(path: Path, course_root: Path, package: Path | None = None) -> str:
    """The name a file is recorded under: relative to the course root (links kept as they
    are, then resolved), or inside the grader package wherever it is installed."""
    package = PACKAGE if package is None else Path(package)
    for base, target in ((course_root, path), (course_root.resolve(), path.resolve()),
                         (package, path.resolve())):
        try:
            relative = target.relative_to(base).as_posix()
        except ValueError:
            continue
        return relative if base != package else "grader/" + relative
    return path.resolve().as_posix()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def current(course_root: Path, package: Path | None = None) -> dict[str, str]:
    return {_relative(p, course_root, package): digest(p) for p in guarded_files(course_root, package)
            if p.is_file()}


def read_record(record: Path = RECORD) -> dict[str, str]:
    entries = {}
    for line in record.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            sha, _, name = line.partition("  ")
            entries[name] = sha
    return entries


def record_text(entries: dict[str, str]) -> str:
    """The record's text for these digests (name -> sha256)."""
    lines = ["# sha256 of the files `grader check --ci` refuses to run with if changed.",
             "# Refresh with: python -m grader.integrity --update"]
    lines += [f"{sha}  {name}" for name, sha in sorted(entries.items())]
    return "\n".join(lines) + "\n"


def write_record(course_root: Path, record: Path | None = None, package: Path | None = None) -> int:
    record = RECORD if record is None else Path(record)
    entries = current(course_root, package)
    record.write_text(record_text(entries), encoding="utf-8")
    return len(entries)


def tampered(course_root: Path, record: Path | None = None, package: Path | None = None) -> list[Tampered]:
    """Files that differ from the shipped record (empty when the kit is pristine)."""
    record = RECORD if record is None else Path(record)
    if not record.is_file():
        return [Tampered(_relative(record, course_root, package), "missing")]
    shipped = read_record(record)
    found = current(course_root, package)
    problems = [Tampered(name, "changed") for name, sha in sorted(shipped.items())
                if name in found and found[name] != sha]
    problems += [Tampered(name, "missing") for name in sorted(shipped) if name not in found]
    problems += [Tampered(name, "not shipped") for name in sorted(found) if name not in shipped]
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = PACKAGE.parent
    if args == ["--update"]:
        count = write_record(root)
        print(f"recorded {count} files in {RECORD}")
        return 0
    problems = tampered(root)
    for problem in problems:
        print(problem)
    print("pristine" if not problems else f"{len(problems)} file(s) differ from the shipped record")
    return 0 if not problems else 3


if __name__ == "__main__":
    raise SystemExit(main())
