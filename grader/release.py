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

import hashlib
import os
import re
import stat
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import grader
from grader import integrity, markers, scaffold, trees
from grader.course import STUDENT_EDITION, Course, CourseError, Day, load_course
from grader.i18n import LANGUAGES, SOURCE, catalogue_chain, localise, lookup, read_toml, word

EDITION_DIR = "grader/edition"
PRISTINE_DIR = f"{EDITION_DIR}/labs"
WORKSPACE_DIR = f"{EDITION_DIR}/workspace"
EDITION_FILE = f"{EDITION_DIR}/edition.toml"
RECORD_FILE = "grader/shipped.sha256"
TEMPLATES = Path(__file__).resolve().parent / "templates"   # the kit's own: never shipped
README_TEMPLATE = TEMPLATES / "README.md"
GITIGNORE = ("__pycache__/", "*.py[cod]", "*.egg-info/", ".venv/", "venv/", "build/", "dist/", ".grader/",
             ".sessions/", ".pytest_cache/")

# What counts as a quoted solution (find_leaks): one line this long, or two lines in a row
# of which one is at least SHORT_LINE long, that no lab of the region's day (or earlier)
# shows and the grader's own machinery does not use for its own ends.
LONG_LINE = 32
SHORT_LINE = 12


class ReleaseError(Exception):
    """The edition cannot be made or written; str() says why and what to do."""


@dataclass(frozen=True)
class Leak:
    """One place where the edition would carry solution code."""

    path: str          # in the edition
    line: int          # 1-based, in that file
    day: str           # the region's day and exercise id
    exercise: str
    source: str        # the region's file in the source tree, and its line
    source_line: int
    text: str

    def describe(self) -> str:
        return word("release.leak", path=self.path, line=self.line, day=self.day, exercise=self.exercise,
                    source=self.source, source_line=self.source_line, text=self.text)


@dataclass
class Edition:
    """The student edition in memory: relative path -> bytes, and permission bits."""

    days: tuple[Day, ...]
    files: dict[str, bytes] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)

    def add(self, rel: str, data: bytes, mode: int = 0o644) -> None:
        self.files[rel] = data
        self.modes[rel] = mode


@dataclass(frozen=True)
class Written:
    """What write() did."""

    out: Path
    files: int
    removed: tuple[str, ...]    # files of an earlier edition that this one no longer has


# --------------------------------------------------------------------------- which days

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
    edition.add("pyproject.toml", _project_file(course, "pyproject.toml").read_bytes())
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


def _project_file(course: Course, name: str) -> Path:
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


# --------------------------------------------------------------------------- the manifest

_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\s]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def student_manifest(course: Course, days) -> str:
    """The kit's course.toml as the edition has it: comments and layout kept, the released
    days only, no source, no solution or sheet paths, the sample workspace and the pristine
    labs where the edition ships them. Checked by reading both back."""
    manifest = Path(course.manifest or Path(course.root) / "course.toml")
    text = manifest.read_text(encoding="utf-8")
    keep = {d.id for d in days}
    head, blocks = _day_blocks(text.splitlines(keepends=True))
    out = [f"# The student edition of {course.name} (made by `grader release`; the instructor's kit\n",
           "# renders it from its one source). Paths are relative to this file.\n", "\n"]
    out += _student_head(head, course.workspace is not None)
    for day_id, lines in blocks:
        if day_id not in keep:
            continue
        table = None
        for line in lines:
            header = _HEADER.match(line)
            key = _KEY.match(line)
            if header and not line.lstrip().startswith("#"):
                table = header.group(1).replace(" ", "")
            elif table == "days" and key and key.group(1) in ("solution", "sheet"):
                continue   # the day's own keys: the edition has no solutions and no sheets folder
            out.append(line)
    rendered = "".join(out)
    _check_manifest(text, rendered, keep)
    return rendered


def _day_blocks(lines: list[str]) -> tuple[list[str], list[tuple[str | None, list[str]]]]:
    """The lines before the first [[days]] table, then each day's lines (its [[days]] table
    with its exercises and checks), each block taking the comments just above its header."""
    starts = [i for i, line in enumerate(lines) if (m := _HEADER.match(line)) and not line.lstrip().startswith("#")
              and m.group(1).replace(" ", "") == "days" and line.strip().startswith("[[")]
    if not starts:
        return lines, []
    cuts = []
    for start in starts:
        cut = start
        while cut > 0 and (lines[cut - 1].lstrip().startswith("#") or not lines[cut - 1].strip()):
            cut -= 1
        cuts.append(cut)
    blocks = []
    for n, cut in enumerate(cuts):
        end = cuts[n + 1] if n + 1 < len(cuts) else len(lines)
        block = lines[cut:end]
        ident = next((m.group(1) for line in block[starts[n] - cut:]
                      if (m := re.match(r'^\s*id\s*=\s*"([^"]*)"', line))), None)
        blocks.append((ident, block))
    return lines[:cuts[0]], blocks


def _student_head(head: list[str], workspace: bool) -> list[str]:
    """The top of the manifest: the kit's leading comments dropped (they describe the kit),
    [course] without `source`, with the edition's workspace and pristine labs."""
    lines = list(head)
    while lines and (lines[0].lstrip().startswith("#") or not lines[0].strip()):
        lines.pop(0)
    out: list[str] = []
    section = None

    def close_course() -> None:   # the edition's keys go after [course]'s last key
        at = len(out)
        while at > 0 and (not out[at - 1].strip() or out[at - 1].lstrip().startswith("#")):
            at -= 1
        out[at:at] = _edition_keys(workspace)

    for line in lines:
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            if section == "course":
                close_course()
            section = header.group(1).replace(" ", "")
            out.append(line)
            continue
        key = _KEY.match(line)
        if section == "course" and key and key.group(1) in ("source", "workspace", "edition", "pristine"):
            continue
        out.append(line)
    if section == "course":
        close_course()
    return out


def _edition_keys(workspace: bool) -> list[str]:
    keys = [f'edition = "{STUDENT_EDITION}"     # no source and no solutions in it\n',
            f'pristine = "{PRISTINE_DIR}"  # each day\'s untouched lab, for `grader reset`\n']
    if workspace:
        keys.append(f'workspace = "{WORKSPACE_DIR}"  # the sample project; each child of a check gets its own copy\n')
    return keys


def _check_manifest(kit_text: str, student_text: str, keep: set[str]) -> None:
    """The rewritten manifest holds exactly the kit's data, less what the edition drops."""
    try:
        kit, student = tomllib.loads(kit_text), tomllib.loads(student_text)
    except tomllib.TOMLDecodeError as exc:
        raise ReleaseError(word("release.manifest_broken", error=exc)) from exc
    expected = dict(kit)
    expected["course"] = {k: v for k, v in kit["course"].items() if k not in ("source", "workspace")}
    expected["course"].update(edition=STUDENT_EDITION, pristine=PRISTINE_DIR)
    if "workspace" in kit["course"]:
        expected["course"]["workspace"] = WORKSPACE_DIR
    expected["days"] = [{k: v for k, v in d.items() if k not in ("solution", "sheet")}
                        for d in kit.get("days", []) if d.get("id") in keep]
    if student != expected:
        raise ReleaseError(word("release.manifest_broken", error=word("release.tables_differ")))


# --------------------------------------------------------------------------- the students' README

def _word_in(lang: str, key: str, **values) -> str:
    tables = [read_toml(p) for p in catalogue_chain(Path(grader.__file__).with_name("words.toml"), lang=lang)]
    text = lookup(tables, key, values)
    if text is None:
        raise KeyError(key)
    return text


def _kit_relative(course: Course, path) -> str:
    return Path(path).resolve().relative_to(Path(course.root).resolve()).as_posix()


def _sheet_names(lang: str) -> list[str]:
    """A lab's sheets, the reader's language first: README.md / README.zh.md."""
    own = "README.md" if lang == SOURCE else f"README.{lang}.md"
    return [own] + [name for name in ["README.md"] + [f"README.{x}.md" for x in LANGUAGES if x != SOURCE]
                    if name != own]


def student_readmes(course: Course, days, sheet_names: dict[str, set[str]] | None = None) -> dict[str, str]:
    """README.md and its translations (README.<lang>.md), from the kit's templates: how to
    install, check, read hints and reset, and a table of the released days. `sheet_names`:
    which sheets each day's lab has (default: what is in its lab folder)."""
    if sheet_names is None:
        sheet_names = {d.id: {p.name for p in Path(d.lab).glob("README*.md")} for d in days}
    out = {}
    for lang in LANGUAGES:
        template = README_TEMPLATE if lang == SOURCE else README_TEMPLATE.with_name(f"README.{lang}.md")
        if not template.is_file():
            continue
        shown = localise(course, lang)
        titles = {d.id: d.title for d in shown.days}
        last = days[-1]
        rows = []
        for day in days:
            lab = _kit_relative(course, day.lab)
            core, bonus = len(day.checks_core), len(day.checks_bonus)
            checks = _word_in(lang, "release.readme_checks_bonus" if bonus else "release.readme_checks",
                              core=core, bonus=bonus)
            sheets = [name for name in _sheet_names(lang) if name in sheet_names.get(day.id, ())]
            links = f"[`{day.slug}`]({lab}/{sheets[0]})" if sheets else f"`{day.slug}`"
            if len(sheets) > 1:
                links += f" ([{_word_in(lang, 'release.readme_other')}]({lab}/{sheets[1]}))"
            rows.append(f"| {day.number} | {links} | {titles[day.id]} | {checks} |")
        values = {"title": shown.title, "name": course.name, "day": last.id, "package": course.agent.package,
                  "mock": " ".join(f"{k}={v}" for k, v in course.agent.mock_env.items()),
                  "prefix": course.agent.env_prefix,
                  "lab": _kit_relative(course, last.lab),
                  "passes": f"{last.scaffold_passes}/{len(last.checks_core)}",
                  "check": (last.checks_core[0].id if last.checks_core else "CHECK"),
                  "days": "\n".join(rows)}
        text = template.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace("{{" + key + "}}", value)
        if "{{" in text:
            raise ReleaseError(word("release.template_field", template=template,
                                    field=text[text.index("{{"):text.index("{{") + 20]))
        out["README.md" if lang == SOURCE else f"README.{lang}.md"] = _align_comments(text)
    return out


def _align_comments(text: str) -> str:
    """The `#` comments of each ```sh block in one column again (the values put in for
    {{day}} and {{check}} are not as long as the placeholders)."""
    out, block = [], []
    for line in text.splitlines(keepends=True):
        if block:
            block.append(line)
            if line.startswith("```"):
                out += _aligned(block)
                block = []
        elif line.startswith("```sh"):
            block = [line]
        else:
            out.append(line)
    return "".join(out + block)


def _aligned(block: list[str]) -> list[str]:
    from grader.i18n import display_width

    split = [(line.split("  #", 1) if "  #" in line else None) for line in block]
    commands = [part[0].rstrip() for part in split if part]
    if len(commands) < 2:
        return block
    column = max(display_width(c) for c in commands) + 2
    return [line if part is None else part[0].rstrip() + " " * (column - display_width(part[0].rstrip()))
            + "#" + part[1] for line, part in zip(block, split)]


# --------------------------------------------------------------------------- solution leaks

def _lines(data: bytes) -> list[tuple[int, str]] | None:
    """(line number, stripped text) of every non-blank line; None for a binary file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


@dataclass(frozen=True)
class SolutionLines:
    """One exercise region's solution as the leak search reads it."""

    file: str                          # its file, relative to the kit (source/agent/mca/...)
    lines: tuple[tuple[int, str], ...]  # (source line, stripped text) of its non-blank lines, in order


def solution_regions(course: Course) -> dict[tuple[str, str], SolutionLines]:
    """Every exercise region of the source by (day, exercise), as grader/markers.py parses
    it; a region shaped by day blocks is read on every day it appears."""
    source = Path(scaffold._source(course))
    found: dict[tuple[str, str], dict[int, str]] = {}
    files: dict[tuple[str, str], str] = {}
    for rel in trees.tree_files(source, course.runtime_dirs):
        try:
            text = (source / rel).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if not markers.has_markers(text):
            continue
        for day in course.days:
            kept = dict(markers.select_day(text, day.number, rel))
            for region in markers.regions(text, day=day.number, file=rel):
                lines = found.setdefault((region.day, region.id), {})
                files[(region.day, region.id)] = rel
                numbers = [n for n in kept if region.start_line < n < region.end_line]
                for n, line in zip(numbers, region.solution):
                    if line.strip():
                        lines[n] = line.strip()
    shown_as = (source.resolve().relative_to(Path(course.root).resolve()).as_posix() + "/"
                if source.resolve().is_relative_to(Path(course.root).resolve()) else "")
    return {key: SolutionLines(shown_as + files[key], tuple(sorted(lines.items()))) for key, lines in found.items()}


def find_leaks(course: Course, edition: Edition) -> list[Leak]:
    """Where the edition repeats solution code: a distinctive line of a region (LONG_LINE
    characters or more), or two of its lines in a row (one of them SHORT_LINE or more), in
    any file but the labs of the days after the region's own. A line is distinctive when no
    lab of the region's day or before shows it, and the grader's own machinery (its
    modules outside the checks folders) does not use it for its own ends."""
    regions = solution_regions(course)
    order = course.day_order
    labs: dict[str, set[str]] = {}
    public: set[str] = set()
    for day in course.days:   # what each day's lab shows, cumulatively
        tree, _ = scaffold.build(course, day, lab=True)
        for data in tree.values():
            public |= {text for _, text in _lines(data) or []}
        labs[day.id] = set(public)
    common = _machinery_lines(course)
    lab_of = {Path(d.lab).resolve().relative_to(Path(course.root).resolve()).as_posix() + "/": d for d in course.days}
    lab_of |= {f"{PRISTINE_DIR}/{d.slug}/": d for d in course.days}
    long: dict[str, list[tuple[tuple[str, str], int]]] = {}   # line -> (region, its line in the source)
    pairs: dict[tuple[str, str], list[tuple[tuple[str, str], int]]] = {}
    for key, region in regions.items():
        shown = labs.get(key[0], set())
        distinct = {text for _, text in region.lines if text not in shown and text not in common}
        for number, text in region.lines:
            if text in distinct and len(text) >= LONG_LINE:
                long.setdefault(text, []).append((key, number))
        for (number, a), (_, b) in zip(region.lines, region.lines[1:]):
            if any(t in distinct and len(t) >= SHORT_LINE for t in (a, b)):
                pairs.setdefault((a, b), []).append((key, number))
    leaks = []
    for name, data in edition.files.items():
        lines = _lines(data)
        if not lines:
            continue
        later = next((d for prefix, d in lab_of.items() if name.startswith(prefix)), None)
        for index, (number, text) in enumerate(lines):
            found = list(long.get(text, ()))
            if index + 1 < len(lines):
                found += pairs.get((text, lines[index + 1][1]), ())
            for (day_id, exercise), source_line in found:
                if later is not None and later.number > order.get(day_id, 0):
                    continue   # a later day's lab is built on this solution
                leaks.append(Leak(name, number, day_id, exercise, regions[(day_id, exercise)].file,
                                  source_line, text))
    return sorted(set(leaks), key=lambda leak: (leak.path, leak.line))


def _machinery_lines(course: Course) -> set[str]:
    """The lines of the grader's own modules outside every day's checks folder."""
    checks = [Path(d.checks_dir).resolve() for d in course.days]
    common: set[str] = set()
    for path in integrity.PACKAGE.rglob("*.py"):
        if integrity.SKIP_PARTS & set(path.parts) or any(path.resolve().is_relative_to(c) for c in checks):
            continue
        common |= {text for _, text in _lines(path.read_bytes()) or []}
    return common


# --------------------------------------------------------------------------- writing

def previous_files(out: Path) -> set[str] | None:
    """The files an earlier edition in `out` consists of (its edition.toml), or None."""
    try:
        data = tomllib.loads((out / EDITION_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    files = data.get("files")
    return {f for f in files if isinstance(f, str)} if isinstance(files, list) else None


def _refuse_place(course: Course, out: Path) -> None:
    """Never into the kit's folder (or below it: the edition would land in the kit's own
    tree), one of its parents, or a folder the edition is read from."""
    target = out.resolve()
    root = Path(course.root).resolve()
    read_from = [root, integrity.PACKAGE, *(Path(p).resolve() for p in (course.source, course.workspace)
                                            if p is not None)]
    if root.is_relative_to(target) or any(target.is_relative_to(folder) for folder in read_from):
        raise ReleaseError(word("release.bad_place", out=out, root=root))


def check_place(course: Course, out: Path, force: bool) -> set[str]:
    """Refuse a destination that is not ours to write; return the earlier edition's files
    (empty for a new or empty directory)."""
    out = Path(out)
    _refuse_place(course, out)
    if out.exists() and not out.is_dir():
        raise ReleaseError(word("release.not_a_dir", out=out))
    if not out.exists() or all(entry.name == ".git" for entry in out.iterdir()):
        return set()   # new, empty, or a fresh repository (only .git): nothing of anyone's to replace
    if not force:
        raise ReleaseError(word("release.not_empty", out=out))
    return previous_files(out) or set()


def write(course: Course, edition: Edition, out: Path, *, force: bool = False) -> Written:
    """Write the edition into `out` (new, empty, or with `force` an earlier edition's folder).
    A file no edition wrote is never overwritten (unless it already holds the same bytes);
    files of the earlier edition that this one lacks are removed, and nothing else."""
    out = Path(out)
    earlier = check_place(course, out, force)
    foreign = [rel for rel, data in sorted(edition.files.items())
               if rel not in earlier and (out / rel).exists()
               and not ((out / rel).is_file() and not (out / rel).is_symlink() and (out / rel).read_bytes() == data)]
    if foreign:
        raise ReleaseError(word("release.foreign", out=out, path=foreign[0], count=len(foreign)))
    stale = sorted(earlier - set(edition.files))
    out.mkdir(parents=True, exist_ok=True)
    for rel, data in sorted(edition.files.items()):
        target = out / rel
        if target.is_symlink():
            target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{target.name}.release-tmp")
        temp.write_bytes(data)
        os.chmod(temp, edition.modes.get(rel, 0o644))
        os.replace(temp, target)
    removed = []
    for rel in stale:
        target = out / rel
        if target.is_file() or target.is_symlink():
            target.unlink()
            removed.append(rel)
            _prune(target.parent, out)
    try:
        load_course(out / "course.toml")
    except CourseError as exc:
        raise ReleaseError(word("release.manifest_broken", error=exc)) from None
    problems = integrity.tampered(out, out / RECORD_FILE, package=out / "grader")
    if problems:
        raise ReleaseError(word("release.record_mismatch", out=out, files=", ".join(map(str, problems[:5]))))
    return Written(out, len(edition.files), tuple(removed))


def _prune(folder: Path, top: Path) -> None:
    """Remove now-empty folders between `folder` and `top` (never `top` itself)."""
    folder, top = folder.resolve(), top.resolve()
    while folder != top and folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


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
