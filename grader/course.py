"""Load and validate `course.toml`, the single source of truth for every day.

The loader turns the manifest into frozen dataclasses and refuses a broken one
with a `CourseError` whose message names the file, the entry and the fix, so an
instructor editing the manifest never has to read a traceback.

Manifest format (format_version = 1)::

    format_version = 1
    [course]            name, title, agent (optional)
    [[days]]            id, slug, title, lab, solution, checks_module (optional), scaffold_passes
    [[days.exercises]]  id, file, symbol, kind ("todo" | "trap"), summary
    [[days.checks]]     id, title, exercises (list of exercise ids), hints (non-empty), bonus

A day's checks *module* path is read from `checks_module` (default:
`grader/checks/<id without dashes>.py`, e.g. `grader/checks/day07.py`): TOML cannot
hold both a string `checks = "..."` and the `[[days.checks]]` tables in one day.

Paths are relative to the manifest. The loader insists that each day's solution
directory and every exercise file inside it exist (they are the single source).
It does not insist on the lab (the student's copy: `grader reset` regenerates
it) nor on the checks module (a day can be announced before its checks exist);
the CLI reports those two with their own messages.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

FORMAT_VERSION = 1
MANIFEST_NAME = "course.toml"
EXERCISE_KINDS = ("todo", "trap")


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
    id: str
    title: str
    exercises: tuple[str, ...]
    hints: tuple[str, ...]
    bonus: bool = False


@dataclass(frozen=True)
class Day:
    id: str
    slug: str
    title: str
    lab: Path
    solution: Path
    checks: Path
    scaffold_passes: int
    exercises: tuple[Exercise, ...]
    checks_core: tuple[Check, ...]
    checks_bonus: tuple[Check, ...]

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


@dataclass(frozen=True)
class Course:
    root: Path
    name: str
    title: str
    days: tuple[Day, ...]
    manifest: Path | None = field(default=None, compare=False)

    def find_day(self, text: str) -> Day:
        """Accept `day-07`, `07`, `7` or the full slug; otherwise list the known days."""
        wanted = text.strip().lower()
        for day in self.days:
            if wanted in (day.id.lower(), day.slug.lower()):
                return day
        if wanted.isdigit():
            for day in self.days:
                number = re.search(r"(\d+)$", day.id)
                if number and int(number.group(1)) == int(wanted):
                    return day
        known = ", ".join(day.id for day in self.days) or "(none)"
        raise CourseError(f"unknown day {text!r}. Known days: {known}")


# --------------------------------------------------------------------------- loading

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
    beside_package = Path(__file__).resolve().parent.parent / MANIFEST_NAME
    if beside_package.is_file():
        return beside_package
    raise CourseError(
        f"no {MANIFEST_NAME} found in {here} or any parent directory. "
        "Fix: run from inside the kit, or pass --course PATH or set GRADER_COURSE."
    )


def load_course(path: Path | str) -> Course:
    """Read and validate the manifest at `path`."""
    path = Path(path).resolve()
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise CourseError(f"{path}: cannot read the manifest ({exc.strerror}).") from None
    except tomllib.TOMLDecodeError as exc:
        note = ""
        if "overwrite" in str(exc):
            note = " (a key given twice in one table, e.g. a string `checks` next to [[days.checks]]: the module path goes in `checks_module`)"
        raise CourseError(f"{path}: not valid TOML: {exc}{note}. Fix the syntax at that line.") from None
    return _Validator(path).course(data)


class _Validator:
    """Turns the parsed TOML into dataclasses, naming the entry in every error."""

    def __init__(self, path: Path):
        self.path = path
        self.root = path.parent

    def fail(self, entry: str, problem: str, fix: str) -> CourseError:
        return CourseError(f"{self.path}: {entry}: {problem}. Fix: {fix}.")

    def take(self, table: dict, entry: str, key: str, kind: type, *, default=None, required=True):
        if key not in table:
            if required:
                raise self.fail(entry, f"missing key `{key}`", f"add `{key} = ...` ({_type_name(kind)})")
            return default
        value = table[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise self.fail(entry, f"`{key}` must be {_type_name(kind)}, not {_type_name(type(value))}",
                            f"write `{key}` as {_type_name(kind)}")
        return value

    def no_extra(self, table: dict, entry: str, allowed: set[str]) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            raise self.fail(entry, f"unknown key `{extra[0]}`",
                            f"remove it or correct its spelling (known keys: {', '.join(sorted(allowed))})")

    def relative(self, entry: str, key: str, text: str, *, must_exist: bool, directory: bool) -> Path:
        if not text or Path(text).is_absolute() or ".." in Path(text).parts:
            raise self.fail(entry, f"`{key}` = {text!r} must be a path relative to the manifest, inside the kit",
                            f"write it relative to {self.root}")
        full = self.root / text
        if must_exist and not (full.is_dir() if directory else full.is_file()):
            what = "directory" if directory else "file"
            raise self.fail(entry, f"`{key}` names {full}, which is not an existing {what}",
                            "correct the path or create it")
        return full

    def course(self, data: dict) -> Course:
        entry = "top level"
        if "format_version" not in data:
            raise self.fail(entry, "missing `format_version`", f"add `format_version = {FORMAT_VERSION}` at the top")
        if data["format_version"] != FORMAT_VERSION:
            raise self.fail(entry, f"format_version is {data['format_version']!r}, this grader reads {FORMAT_VERSION}",
                            "update the grader, or write the manifest in format 1")
        self.no_extra(data, entry, {"format_version", "course", "days"})
        meta = self.take(data, entry, "course", dict)
        self.no_extra(meta, "[course]", {"name", "title", "agent"})
        name = self.take(meta, "[course]", "name", str)
        title = self.take(meta, "[course]", "title", str)
        raw_days = self.take(data, entry, "days", list)
        days = [self.day(raw, index) for index, raw in enumerate(raw_days, 1)]
        _no_duplicates(self, "[[days]]", [d.id for d in days], "day")
        _no_duplicates(self, "[[days]]", [d.slug for d in days], "day slug")
        return Course(root=self.root, name=name, title=title, days=tuple(days), manifest=self.path)

    def day(self, raw, index: int) -> Day:
        entry = f"[[days]] #{index}"
        if not isinstance(raw, dict):
            raise self.fail(entry, "must be a table", "write it as a [[days]] table")
        day_id = self.take(raw, entry, "id", str)
        entry = f"day {day_id!r}"
        if isinstance(raw.get("checks"), str):
            raise self.fail(entry, "`checks` is a string but must be the [[days.checks]] tables",
                            "put the checks module path in `checks_module`")
        self.no_extra(raw, entry, {"id", "slug", "title", "lab", "solution", "checks_module",
                                   "scaffold_passes", "exercises", "checks"})
        slug = self.take(raw, entry, "slug", str)
        title = self.take(raw, entry, "title", str)
        lab = self.relative(entry, "lab", self.take(raw, entry, "lab", str), must_exist=False, directory=True)
        solution = self.relative(entry, "solution", self.take(raw, entry, "solution", str),
                                 must_exist=True, directory=True)
        default_module = "grader/checks/" + day_id.replace("-", "").replace("_", "") + ".py"
        module = self.relative(entry, "checks_module",
                               self.take(raw, entry, "checks_module", str, default=default_module, required=False),
                               must_exist=False, directory=False)
        passes = self.take(raw, entry, "scaffold_passes", int)
        if passes < 0:
            raise self.fail(entry, "`scaffold_passes` is negative", "give the number of checks the lab passes")
        exercises = tuple(self.exercise(x, entry, i, solution)
                          for i, x in enumerate(self.take(raw, entry, "exercises", list), 1))
        _no_duplicates(self, f"{entry} [[days.exercises]]", [x.id for x in exercises], "exercise")
        known = {x.id for x in exercises}
        checks = [self.check(c, entry, i, known) for i, c in enumerate(self.take(raw, entry, "checks", list), 1)]
        _no_duplicates(self, f"{entry} [[days.checks]]", [c.id for c in checks], "check")
        core = tuple(c for c in checks if not c.bonus)
        if passes > len(core):
            raise self.fail(entry, f"scaffold_passes = {passes} but the day has {len(core)} core checks",
                            "lower scaffold_passes")
        return Day(id=day_id, slug=slug, title=title, lab=lab, solution=solution, checks=module,
                   scaffold_passes=passes, exercises=exercises, checks_core=core,
                   checks_bonus=tuple(c for c in checks if c.bonus))

    def exercise(self, raw, day_entry: str, index: int, solution: Path) -> Exercise:
        entry = f"{day_entry} exercise #{index}"
        if not isinstance(raw, dict):
            raise self.fail(entry, "must be a table", "write it as a [[days.exercises]] table")
        ex_id = self.take(raw, entry, "id", str)
        entry = f"{day_entry} exercise {ex_id!r}"
        self.no_extra(raw, entry, {"id", "file", "symbol", "kind", "summary"})
        file = self.take(raw, entry, "file", str)
        kind = self.take(raw, entry, "kind", str)
        if kind not in EXERCISE_KINDS:
            raise self.fail(entry, f"kind {kind!r} is not one of {', '.join(EXERCISE_KINDS)}",
                            'write kind = "todo" (a hole) or kind = "trap" (tempting wrong code)')
        self.relative(entry, "file", file, must_exist=False, directory=False)
        if not (solution / file).is_file():
            raise self.fail(entry, f"`file` names {solution / file}, which does not exist",
                            "correct the path (relative to the day's solution directory)")
        return Exercise(id=ex_id, file=file, symbol=self.take(raw, entry, "symbol", str), kind=kind,
                        summary=self.take(raw, entry, "summary", str))

    def check(self, raw, day_entry: str, index: int, known: set[str]) -> Check:
        entry = f"{day_entry} check #{index}"
        if not isinstance(raw, dict):
            raise self.fail(entry, "must be a table", "write it as a [[days.checks]] table")
        check_id = self.take(raw, entry, "id", str)
        entry = f"{day_entry} check {check_id!r}"
        self.no_extra(raw, entry, {"id", "title", "exercises", "hints", "bonus"})
        exercises = self.take(raw, entry, "exercises", list)
        hints = self.take(raw, entry, "hints", list)
        for name, values in (("exercises", exercises), ("hints", hints)):
            if not all(isinstance(v, str) for v in values):
                raise self.fail(entry, f"`{name}` must be a list of strings", f"quote every item of `{name}`")
        for ex_id in exercises:
            if ex_id not in known:
                raise self.fail(entry, f"names exercise point {ex_id!r}, which the day does not define",
                                f"use one of: {', '.join(sorted(known)) or '(none defined)'}")
        if not hints or not all(h.strip() for h in hints):
            raise self.fail(entry, "has no hints (or an empty one)",
                            "give at least one hint: a nudge, then the concept, then a near-solution")
        return Check(id=check_id, title=self.take(raw, entry, "title", str), exercises=tuple(exercises),
                     hints=tuple(hints), bonus=self.take(raw, entry, "bonus", bool, default=False, required=False))


def _no_duplicates(validator: _Validator, entry: str, ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise validator.fail(entry, f"duplicate {what} id {item!r}", f"give each {what} a unique id")
        seen.add(item)


def _type_name(kind: type) -> str:
    return {str: "a string", int: "an integer", bool: "true or false", list: "a list",
            dict: "a table", float: "a number"}.get(kind, kind.__name__)
