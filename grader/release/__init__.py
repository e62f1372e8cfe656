"""`grader release`: the student edition of the kit, with no solution in it.

The edition is what students clone: the labs, the grader with every released day's
checks and their data, course.toml and its translations, a README in both languages,
pyproject.toml and .gitignore. It has no `solutions/` and no `source/` (the labs'
solution regions live there), none of the kit's tests (they import the solutions, and
each day's corpus of mutants is a set of patches against them), no docs, benchmarks or
CI files:

    course.toml, course.zh.toml    the manifest, rewritten: `edition = "student"`, no source,
                                   no solution or sheet paths, only the days released
    README.md, README.zh.md        for students: install, check, hints, reset
    pyproject.toml, .gitignore
    labs/<slug>/                   the untouched labs, as the kit generates them
    grader/                        the grader package with the released days' checks folders
    grader/edition/labs/<slug>/    pristine copies of the labs: `grader reset` restores from them
    grader/edition/workspace/      the sample project the checks copy for each child
    grader/edition/edition.toml    what made the edition, its days and the files it consists of
    grader/shipped.sha256          the edition's own record, so `grader check --ci` holds there too

Before anything is written, the whole edition is searched for solution code
(`find_leaks`): no file may repeat a solution region's distinctive lines, except the
labs of later days, which are built on it. Day N's lab is day N-1's solution plus day
N's scaffolds (that is how the course builds), so an edition holding day 7 hands out
the answers of days 1-6 with it; `--through DAY` releases the days up to DAY only.

Writing: into a new or empty directory, or with `force` over an earlier edition, whose
own files (listed in its edition.toml) it replaces or removes; nothing else there is
deleted, and a file that no edition wrote is never overwritten.
"""

from __future__ import annotations

from pathlib import Path

from grader.course import Course, CourseError
from grader.i18n import word
from grader.release.build import build, project_file, released_days
from grader.release.layout import (EDITION_DIR, EDITION_FILE, PRISTINE_DIR, RECORD_FILE, TEMPLATES, WORKSPACE_DIR,
                                   Edition, ReleaseError, Written)
from grader.release.leaks import LONG_LINE, SHORT_LINE, Leak, SolutionLines, find_leaks, solution_regions
from grader.release.readmes import student_readmes
from grader.release.student_manifest import student_manifest
from grader.release.writing import check_place, previous_files, write

__all__ = ["EDITION_DIR", "EDITION_FILE", "LONG_LINE", "PRISTINE_DIR", "RECORD_FILE", "SHORT_LINE", "TEMPLATES",
           "WORKSPACE_DIR", "Edition", "Leak", "ReleaseError", "SolutionLines", "Written", "build", "check_place",
           "find_leaks", "previous_files", "project_file", "release", "released_days", "solution_regions",
           "student_manifest", "student_readmes", "write"]


def release(course: Course, out: Path, *, through: str | None = None, force: bool = False) -> tuple[Edition, Written]:
    """Build the edition of the days up to `through`, prove it holds no solution, write it."""
    try:
        days = released_days(course, through)
    except CourseError as exc:
        raise ReleaseError(str(exc)) from None
    check_place(course, out, force)   # refuse early, before the work
    edition = build(course, days)
    leaks = find_leaks(course, edition)
    if leaks:
        listed = "; ".join(leak.describe() for leak in leaks[:3])
        raise ReleaseError(word("release.leaks", count=len(leaks), leaks=listed))
    return edition, write(course, edition, out, force=force)
