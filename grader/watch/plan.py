"""Which checks a change to a lab must re-run: the map from course.toml.

Each exercise point names its `file`; each check lists the points it proves
(`exercises`) and the points it rests on (`depends`). A saved exercise file re-runs
the checks of the points that live in it, and nothing else. A saved provided file
(any other file of the lab) can break anything, so it re-runs every check. What the
grader never grades triggers nothing: bytecode and caches, the agent's run-time
directories, the grader's own `.grader/`, version control and virtualenvs, and the
swap, backup and probe files editors write beside the file being saved.

Whether a file really changed is decided by its bytes (`Snapshot`), not by the event:
an editor that rewrites a file with the same content, or a temporary file that comes
and goes within one burst of saves, re-runs nothing.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

from grader.course import Day
from grader.scaffold.trees import IGNORED_NAMES, IGNORED_SUFFIXES, tree_files

# Files editors write next to the one being saved (vim's .swp/.swo and its `4913`
# write probe, emacs' `#file#` and `.#file` locks, `file~` backups, JetBrains' safe
# write, kate, macOS Finder): never the student's code.
EDITOR_FILES = re.compile(r"""(
      \.sw[a-p]$ | \.swx$ | ~$ | ^\.\# | ^\#.*\#$ | ^\d+$ | ___jb_(tmp|old)___$
    | \.kate-swp$ | ^\.DS_Store$ | \.(tmp|bak|orig)$
)""", re.X)


def is_ignored(rel: str, runtime_dirs: Iterable[str] = ()) -> bool:
    """True for a lab path (relative, '/'-separated) that grading never looks at."""
    parts = PurePosixPath(rel).parts
    if not parts:
        return True
    skipped = IGNORED_NAMES | set(runtime_dirs)
    if any(part in skipped for part in parts):
        return True
    name = parts[-1]
    return name.endswith(IGNORED_SUFFIXES) or EDITOR_FILES.search(name) is not None


def checks_of_points(day: Day, points: Iterable[str]) -> tuple[str, ...]:
    """The checks (core then bonus, manifest order) that prove or rest on any of `points`."""
    wanted = set(points)
    return tuple(c.id for c in day.all_checks if wanted & (set(c.exercises) | set(c.depends)))


@dataclass(frozen=True)
class Plan:
    """One run of the watch loop: which checks, and why.

    `checks` is None for every check. `files` are the changed lab files that count;
    `points` the exercise points living in them; `provided` those of them that are
    no exercise point's file (one is enough to re-run everything)."""

    checks: tuple[str, ...] | None
    files: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    provided: tuple[str, ...] = ()
    everything: str = ""      # why every check runs: "first", "key", "provided", "lab"

    @property
    def is_full(self) -> bool:
        return self.checks is None


FIRST = Plan(None, everything="first")
ON_KEY = Plan(None, everything="key")
AFTER_TROUBLE = Plan(None, everything="lab")   # the last run could not be trusted as a base


def plan_for(day: Day, changed: Iterable[str], runtime_dirs: Iterable[str] = ()) -> Plan | None:
    """The run a set of changed lab paths asks for; None when none of them counts."""
    files = tuple(sorted({rel for rel in changed if not is_ignored(rel, runtime_dirs)}))
    if not files:
        return None
    by_file: dict[str, list[str]] = {}
    for exercise in day.exercises:
        by_file.setdefault(exercise.file, []).append(exercise.id)
    provided = tuple(rel for rel in files if rel not in by_file)
    points = tuple(p for rel in files for p in by_file.get(rel, ()))
    if provided:
        return Plan(None, files, points, provided, everything="provided")
    return Plan(checks_of_points(day, points), files, points)


class Snapshot:
    """The lab's files (sha256 of each) as the last run graded them."""

    def __init__(self, lab: Path, runtime_dirs: Iterable[str] = ()):
        self.lab = Path(lab)
        self.runtime_dirs = frozenset(runtime_dirs)
        self.digests = {rel: self._digest(rel) for rel in tree_files(self.lab, self.runtime_dirs)}

    def _digest(self, rel: str) -> str | None:
        path = self.lab / rel
        try:
            if path.is_dir():
                return "directory"
            return hashlib.sha256(path.read_bytes()).hexdigest()
        except FileNotFoundError:
            return None
        except OSError:
            return "unreadable"

    def differing(self, paths: Iterable[str]) -> set[str]:
        """Those of `paths` whose bytes (or existence) differ from the snapshot's.

        A directory that appeared or went away counts as changed (its files moved
        with it); one that merely exists still counts only through its files."""
        out = set()
        for rel in paths:
            now = self._digest(rel)
            if now == "directory":
                if not any(name == rel or name.startswith(rel + "/") for name in self.digests):
                    out.add(rel)    # a directory moved in: its files are new to the last run
                continue
            if now is None and rel not in self.digests:
                if any(name.startswith(rel + "/") for name in self.digests):
                    out.add(rel)    # a directory that held graded files went away
                continue
            if now != self.digests.get(rel):
                out.add(rel)
        return out
