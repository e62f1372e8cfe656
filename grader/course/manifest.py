"""Read and validate `course.toml` into a `Course` (grader/course/).

A broken manifest is refused with a `CourseError` whose message names the file,
the entry and the fix, so an instructor editing it never reads a traceback.

Format (format_version = 2)::

    format_version = 2
    [course]            name, title, source (the one source tree, default "source"),
                        workspace (optional: the sample project checks copy for each child),
                        edition and pristine (the student edition only, see below)
    [course.agent]      package, mock_env (table), env_prefix, runtime_dirs   (all optional)
    [[days]]            id (ends in its number), slug, title, lab, solution, checks_dir (optional,
                        default grader/checks/<id without dashes>), sheet (optional), scaffold_passes
    [[days.exercises]]  id, file, symbol, kind ("todo" | "trap"), summary
    [[days.checks]]     id, title, exercises (list of exercise ids), depends (optional, likewise),
                        hints (non-empty), bonus

Paths are relative to the manifest. The loader insists that the source tree and
every exercise file in it exist (they are the single source). The student edition
(`grader release`) says `edition = "student"` and has no source and no solutions: its
`pristine` folder holds every day's untouched lab under the day's slug, and each
exercise file must exist in the day's pristine lab instead. It does not insist on
a day's lab and solution (both are generated) nor on its checks folder (a day can be
announced before its checks exist); the CLI reports those with their own messages.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from grader.course.model import STUDENT_EDITION, Agent, Check, Course, CourseError, Day, Exercise

FORMAT_VERSION = 2
EXERCISE_KINDS = ("todo", "trap")


def read_manifest(path: Path) -> Course:
    path = Path(path).resolve()
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise CourseError(f"{path}: cannot read the manifest ({exc.strerror}).") from None
    except tomllib.TOMLDecodeError as exc:
        raise CourseError(f"{path}: not valid TOML: {exc}. Fix the syntax at that line.") from None
    return _Validator(path).course(data)


class _Validator:
    """Turns the parsed TOML into dataclasses, naming the entry in every error."""

    def __init__(self, path: Path):
        self.path = path
        self.root = path.parent
        self.edition: str | None = None
        self.pristine: Path | None = None

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

    def strings(self, table: dict, entry: str, key: str, *, default=()) -> tuple[str, ...]:
        values = self.take(table, entry, key, list, default=list(default), required=False)
        if not all(isinstance(v, str) for v in values):
            raise self.fail(entry, f"`{key}` must be a list of strings", f"quote every item of `{key}`")
        return tuple(values)

    def no_extra(self, table: dict, entry: str, allowed: set[str]) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            renamed = {"checks_module": "checks_dir (the day's folder, e.g. grader/checks/day07)"}
            fix = (f"it is now `{renamed[extra[0]]}`" if extra[0] in renamed else
                   f"remove it or correct its spelling (known keys: {', '.join(sorted(allowed))})")
            raise self.fail(entry, f"unknown key `{extra[0]}`", fix)

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
            raise self.fail(entry, f"format_version is {data['format_version']!r}, this grader reads "
                            f"{FORMAT_VERSION}", f"update the grader, or write the manifest in format {FORMAT_VERSION}")
        self.no_extra(data, entry, {"format_version", "course", "days"})
        meta = self.take(data, entry, "course", dict)
        self.no_extra(meta, "[course]", {"name", "title", "source", "workspace", "agent", "edition", "pristine"})
        edition = self.take(meta, "[course]", "edition", str, default=None, required=False)
        pristine = None
        if edition is None:
            if "pristine" in meta:
                raise self.fail("[course]", "`pristine` is for the student edition only",
                                f'remove it, or add `edition = "{STUDENT_EDITION}"` if this is a student edition')
            source = self.relative("[course]", "source", self.take(meta, "[course]", "source", str,
                                   default="source", required=False), must_exist=True, directory=True)
        elif edition == STUDENT_EDITION:
            if "source" in meta:
                raise self.fail("[course]", "the student edition has no source tree",
                                "remove `source` (the edition's labs come from `pristine`)")
            source = None
            pristine = self.relative("[course]", "pristine", self.take(meta, "[course]", "pristine", str),
                                     must_exist=True, directory=True)
        else:
            raise self.fail("[course]", f"edition {edition!r} is not known",
                            f'write edition = "{STUDENT_EDITION}" (the student edition), or leave it out (the kit)')
        self.edition, self.pristine = edition, pristine
        workspace = None
        if "workspace" in meta:
            workspace = self.relative("[course]", "workspace", self.take(meta, "[course]", "workspace", str),
                                      must_exist=True, directory=True)
        agent = self.agent(self.take(meta, "[course]", "agent", dict, default={}, required=False))
        raw_days = self.take(data, entry, "days", list)
        days = [self.day(raw, index, source) for index, raw in enumerate(raw_days, 1)]
        _no_duplicates(self, "[[days]]", [d.id for d in days], "day id")
        _no_duplicates(self, "[[days]]", [d.slug for d in days], "day slug")
        _no_duplicates(self, "[[days]]", [str(d.number) for d in days], "day number")
        return Course(root=self.root, name=self.take(meta, "[course]", "name", str),
                      title=self.take(meta, "[course]", "title", str), days=tuple(days), source=source,
                      workspace=workspace, agent=agent, manifest=self.path, edition=edition, pristine=pristine)

    def agent(self, raw: dict) -> Agent:
        entry = "[course.agent]"
        self.no_extra(raw, entry, {"package", "mock_env", "env_prefix", "runtime_dirs"})
        default = Agent()
        mock = self.take(raw, entry, "mock_env", dict, default=dict(default.mock_env), required=False)
        if not all(isinstance(v, str) for v in mock.values()):
            raise self.fail(entry, "`mock_env` values must be strings", 'write e.g. mock_env = { MOCK = "1" }')
        package = self.take(raw, entry, "package", str, default=default.package, required=False)
        if not re.fullmatch(r"[A-Za-z_]\w*", package):
            raise self.fail(entry, f"`package` = {package!r} is not a Python package name", "write e.g. \"mca\"")
        return Agent(package=package, mock_env=dict(mock),
                     env_prefix=self.take(raw, entry, "env_prefix", str, default=default.env_prefix, required=False),
                     runtime_dirs=self.strings(raw, entry, "runtime_dirs", default=default.runtime_dirs))

    def day(self, raw, index: int, source: Path | None) -> Day:
        entry = f"[[days]] #{index}"
        if not isinstance(raw, dict):
            raise self.fail(entry, "must be a table", "write it as a [[days]] table")
        day_id = self.take(raw, entry, "id", str)
        entry = f"day {day_id!r}"
        if not re.search(r"\d+$", day_id):
            raise self.fail(entry, "the id does not end in the day's number", 'write e.g. id = "day-07"')
        self.no_extra(raw, entry, {"id", "slug", "title", "lab", "solution", "checks_dir", "sheet",
                                   "scaffold_passes", "exercises", "checks"})
        path = lambda key, **kw: self.relative(entry, key, self.take(raw, entry, key, str), **kw)  # noqa: E731
        default_checks = "grader/checks/" + re.sub(r"[-_]", "", day_id)
        checks_dir = self.relative(entry, "checks_dir", self.take(raw, entry, "checks_dir", str,
                                   default=default_checks, required=False), must_exist=False, directory=True)
        sheet = None
        if "sheet" in raw:
            sheet = path("sheet", must_exist=True, directory=False)
        passes = self.take(raw, entry, "scaffold_passes", int)
        if passes < 0:
            raise self.fail(entry, "`scaffold_passes` is negative", "give the number of checks the lab passes")
        slug = self.take(raw, entry, "slug", str)
        # the exercise files live in the source tree, or in the student edition in the day's pristine lab
        files_in = source if self.pristine is None else self.pristine / slug
        exercises = tuple(self.exercise(x, entry, i, files_in)
                          for i, x in enumerate(self.take(raw, entry, "exercises", list), 1))
        _no_duplicates(self, f"{entry} [[days.exercises]]", [x.id for x in exercises], "exercise id")
        known = {x.id for x in exercises}
        checks = [self.check(c, entry, i, known) for i, c in enumerate(self.take(raw, entry, "checks", list), 1)]
        _no_duplicates(self, f"{entry} [[days.checks]]", [c.id for c in checks], "check id")
        core = tuple(c for c in checks if not c.bonus)
        if passes > len(core):
            raise self.fail(entry, f"scaffold_passes = {passes} but the day has {len(core)} core checks",
                            "lower scaffold_passes")
        if self.edition == STUDENT_EDITION:
            if "solution" in raw:
                raise self.fail(entry, "the student edition has no solutions", "remove `solution`")
            solution = None
        else:
            solution = path("solution", must_exist=False, directory=True)
        return Day(id=day_id, slug=slug, title=self.take(raw, entry, "title", str),
                   lab=path("lab", must_exist=False, directory=True),
                   solution=solution, checks_dir=checks_dir,
                   scaffold_passes=passes, exercises=exercises, checks_core=core,
                   checks_bonus=tuple(c for c in checks if c.bonus), sheet=sheet)

    def exercise(self, raw, day_entry: str, index: int, source: Path) -> Exercise:
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
        if not (source / file).is_file():
            where = "the source tree" if self.pristine is None else "the day's pristine lab"
            raise self.fail(entry, f"`file` names {source / file}, which does not exist",
                            f"correct the path (relative to {where}, as in the day's lab)")
        return Exercise(id=ex_id, file=file, symbol=self.take(raw, entry, "symbol", str), kind=kind,
                        summary=self.take(raw, entry, "summary", str))

    def check(self, raw, day_entry: str, index: int, known: set[str]) -> Check:
        entry = f"{day_entry} check #{index}"
        if not isinstance(raw, dict):
            raise self.fail(entry, "must be a table", "write it as a [[days.checks]] table")
        check_id = self.take(raw, entry, "id", str)
        entry = f"{day_entry} check {check_id!r}"
        self.no_extra(raw, entry, {"id", "title", "exercises", "depends", "hints", "bonus"})
        exercises = self.strings(raw, entry, "exercises") if "exercises" in raw else \
            self.take(raw, entry, "exercises", list)
        depends = self.strings(raw, entry, "depends")
        hints = self.strings(raw, entry, "hints") if "hints" in raw else self.take(raw, entry, "hints", list)
        for ex_id in (*exercises, *depends):
            if ex_id not in known:
                raise self.fail(entry, f"names exercise point {ex_id!r}, which the day does not define",
                                f"use one of: {', '.join(sorted(known)) or '(none defined)'}")
        if not hints or not all(h.strip() for h in hints):
            raise self.fail(entry, "has no hints (or an empty one)",
                            "give at least one hint: a nudge, then the concept, then a near-solution")
        overlap = sorted(set(exercises) & set(depends))
        if overlap:
            raise self.fail(entry, f"{overlap[0]} is in both `exercises` and `depends`",
                            "list a point in `exercises` when its scaffold fails the check, else in `depends`")
        return Check(id=check_id, title=self.take(raw, entry, "title", str), exercises=tuple(exercises),
                     hints=tuple(hints), bonus=self.take(raw, entry, "bonus", bool, default=False, required=False),
                     depends=tuple(depends))


def _no_duplicates(validator: _Validator, entry: str, ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise validator.fail(entry, f"duplicate {what} {item!r}", f"give each one a unique {what}")
        seen.add(item)


def _type_name(kind: type) -> str:
    return {str: "a string", int: "an integer", bool: "true or false", list: "a list",
            dict: "a table", float: "a number"}.get(kind, kind.__name__)


# --------------------------------------------------------------------------- where a path came from

_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\s]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*(.*?)\s*$")


def locate_day_key(manifest: Path, day_id: str, key: str) -> int | None:
    """The 1-based line of `key = ...` in the [[days]] table whose id is `day_id`, or None
    (the key is absent: a default applies, or the file cannot be read). A plain line scan:
    tomllib keeps no positions, and the day tables of course.toml are simple."""
    try:
        lines = Path(manifest).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    in_day = False
    found: dict[str, int] = {}
    ident = None
    matches = lambda: ident == day_id  # noqa: E731
    for number, line in enumerate(lines, 1):
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            if in_day and matches() and key in found:
                return found[key]
            name = header.group(1).replace(" ", "")
            if name == "days":
                in_day, found, ident = True, {}, None
            else:
                in_day = False   # [[days.checks]] and the like: the day's own keys are over
            continue
        if not in_day:
            continue
        entry = _KEY.match(line)
        if entry:
            found.setdefault(entry.group(1), number)
            if entry.group(1) == "id":
                ident = entry.group(2).split("#", 1)[0].strip().strip("\"'")
    if in_day and matches():
        return found.get(key)
    return None


def where(course: Course, day: Day, key: str) -> str:
    """`course.toml line 734 (lab = "labs/...")` for messages; the default when the key is absent."""
    manifest = course.manifest or Path(course.root) / "course.toml"
    line = locate_day_key(manifest, day.id, key)
    if line is None:
        return f"{manifest} (no `{key}` in {day.id}'s [[days]] table: the default applies)"
    text = manifest.read_text(encoding="utf-8").splitlines()[line - 1].strip()
    return f"{manifest} line {line} ({text})"


def mistyped_path(course: Course, day: Day, key: str) -> str | None:
    """A refusal naming course.toml when the day's `key` path (lab, solution, checks_dir)
    does not exist and looks mistyped: its parent directory is missing, or a directory
    with a close name (not another day's) stands beside it. None when the path exists or
    looks like a directory that is simply gone (a deleted lab: `grader reset` brings it back)."""
    import difflib

    if getattr(day, key) is None:   # the student edition has no solutions: nothing to mistype
        return None
    path = Path(getattr(day, key))
    if path.exists():
        return None
    parent = path.parent
    others = {Path(getattr(d, k)).resolve() for d in course.days for k in ("lab", "solution", "checks_dir")
              if d.id != day.id and getattr(d, k) is not None}
    if not parent.is_dir():
        reason = f"its parent directory {parent} does not exist either"
    else:
        siblings = [p.name for p in parent.iterdir() if p.is_dir() and p.resolve() not in others
                    and not p.name.startswith(".")]
        close = difflib.get_close_matches(path.name, siblings, n=1, cutoff=0.75)
        if not close:
            return None
        reason = f"{parent / close[0]} exists"
    what = {"lab": "lab", "solution": "solution", "checks_dir": "checks folder"}[key]
    return (f"the {what} path of {day.id} looks mistyped in course.toml: {path} does not exist and {reason}. "
            f"It comes from {where(course, day, key)}. Fix: correct `{key}` in course.toml, then run the "
            f"command again")
