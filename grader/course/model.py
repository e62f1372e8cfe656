"""The course manifest as objects: `Course`, `Day`, `Exercise`, `Check`, `Agent`.

`course.toml` is the single manifest (the format and its validation live in
grader/course/manifest.py). Everything day-specific the grader knows comes from here:
a day's checks folder, its exercise points and hints, where its lab and solution
are generated, and which of the source's day markers make it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

MANIFEST_NAME = "course.toml"


class CourseError(Exception):
    """The manifest cannot be used; the message says where and how to fix it."""


@dataclass(frozen=True)
class Exercise:
    id: str
    file: str
    symbol: str
    kind: str
    summary: str


@dataclass(frozen=True)
class Check:
    """One check. `exercises`: the points whose scaffold fails it (verify holds this exactly).
    `depends`: points it also rests on through provided code, which some mistakes there can
    break while their scaffold does not (its messages then name that point)."""

    id: str
    title: str
    exercises: tuple[str, ...]
    hints: tuple[str, ...]
    bonus: bool = False
    depends: tuple[str, ...] = ()


@dataclass(frozen=True)
class Agent:
    """What the grader needs to know about the agent the course builds.

    `package` is started as `python -m <package>`; `mock_env` selects its mock model;
    variables starting with `env_prefix` are never passed on from the grader's own
    environment (a student's API key must not reach a check); `runtime_dirs` are
    directories the agent writes while it runs (never copied, generated or compared).
    """

    package: str = "mca"
    mock_env: Mapping[str, str] = field(default_factory=lambda: {"MOCK": "1"})  # a dict: courses are pickled
    env_prefix: str = "MCA_"
    runtime_dirs: tuple[str, ...] = (".sessions",)


@dataclass(frozen=True)
class Day:
    id: str
    slug: str
    title: str
    lab: Path
    solution: Path | None    # None in the student edition, which ships no solutions
    checks_dir: Path
    scaffold_passes: int
    exercises: tuple[Exercise, ...]
    checks_core: tuple[Check, ...]
    checks_bonus: tuple[Check, ...]
    sheet: Path | None = None

    @property
    def number(self) -> int:
        """The day's number, from the digits its id ends in (`day-07` -> 7)."""
        return day_number(self.id)

    @property
    def checks_module(self) -> Path:
        return self.checks_dir / "checks.py"

    @property
    def all_checks(self) -> tuple[Check, ...]:
        """Core checks then bonus checks, each in manifest order."""
        return self.checks_core + self.checks_bonus

    def check(self, check_id: str) -> Check:
        for check in self.all_checks:
            if check.id == check_id:
                return check
        known = ", ".join(c.id for c in self.all_checks)
        raise KeyError(f"{self.id} has no check {check_id!r}; its checks are: {known}")

    def exercise(self, exercise_id: str) -> Exercise:
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        raise KeyError(f"{self.id} has no exercise point {exercise_id!r}")


def day_number(day_id: str) -> int:
    match = re.search(r"(\d+)$", day_id)
    if match is None:
        raise CourseError(f"day id {day_id!r} does not end in its number (e.g. day-07)")
    return int(match.group(1))


STUDENT_EDITION = "student"


@dataclass(frozen=True)
class Course:
    """The course. The instructor's kit has a `source` tree that every lab and solution is
    rendered from; the student edition (`grader release`) has neither source nor solutions,
    only `pristine`: a folder holding each day's untouched lab under its slug."""

    root: Path
    name: str
    title: str
    days: tuple[Day, ...]
    source: Path | None = None
    workspace: Path | None = None  # the sample project the checks give each child a copy of
    agent: Agent = field(default_factory=Agent)
    manifest: Path | None = field(default=None, compare=False)
    edition: str | None = None     # "student" in the student edition; None in the instructor's kit
    pristine: Path | None = None   # the student edition's untouched labs, <pristine>/<slug>/

    @property
    def is_student_edition(self) -> bool:
        return self.edition == STUDENT_EDITION

    def find_day(self, text: "str | Day") -> Day:
        """Accept a Day, `day-07`, `07`, `7`, `day-7` or the full slug; otherwise list the known days."""
        if isinstance(text, Day):
            return text
        wanted = text.strip().lower()
        for day in self.days:
            if wanted in (day.id.lower(), day.slug.lower()):
                return day
        number = re.fullmatch(r"(?:day[-_ ]?)?0*(\d+)", wanted)   # 7, 07, day-7, day-007, day7
        if number:
            for day in self.days:
                if day.number == int(number.group(1)):
                    return day
        known = ", ".join(day.id for day in self.days) or "(none)"
        raise CourseError(f"unknown day {text!r}. Known days: {known}")

    def day_at(self, path: Path | str) -> "Day | None":
        """The day whose lab directory holds `path` (the lab itself or a folder in it), if any."""
        try:
            here = Path(path).resolve()
        except OSError:
            return None
        for day in self.days:
            lab = Path(day.lab).resolve()
            if here == lab or lab in here.parents:
                return day
        return None

    @property
    def day_order(self) -> dict[str, int]:
        """Day id -> day number, for the source's markers."""
        return {day.id: day.number for day in self.days}

    @property
    def runtime_dirs(self) -> frozenset[str]:
        return frozenset(self.agent.runtime_dirs)


def find_course(start: Path | str | None = None) -> Path:
    """Locate course.toml.

    Order: an explicit path (the CLI's `--course`), `$GRADER_COURSE`, the first
    course.toml found walking up from the current directory, and finally the repo
    root next to this package (an editable install run from anywhere).
    """
    if start is None and os.environ.get("GRADER_COURSE"):
        start = os.environ["GRADER_COURSE"]
    if start is not None:
        path = Path(start).expanduser()
        if path.is_dir():
            path = path / MANIFEST_NAME
        if not path.is_file():
            raise CourseError(f"{path}: no such manifest. Fix: pass the path of course.toml (or its directory).")
        return path.resolve()
    here = Path.cwd().resolve()
    for directory in (here, *here.parents):
        candidate = directory / MANIFEST_NAME
        if candidate.is_file():
            return candidate
    beside_package = Path(__file__).resolve().parents[2] / MANIFEST_NAME
    if beside_package.is_file():
        return beside_package
    raise CourseError(
        f"no {MANIFEST_NAME} found in {here} or any parent directory. "
        "Fix: run from inside the kit, or pass --course PATH or set GRADER_COURSE."
    )
