"""Every day's solution and lab, rendered from the one source.

The agent's code exists once, in the course's source tree (course.toml,
`[course] source`), carrying day blocks and exercise regions (grader/scaffold/markers.py).
For each day the generator renders:

* its solution: the agent at the end of that day (day blocks resolved, every
  region up to that day as its solution);
* its lab: the same with that day's own regions replaced by their scaffolds.

Both are committed; drift between them and what the generator makes now is an
error `verify` reports. The student edition (`grader release`) has no source: there
`build(lab=True)` returns the day's pristine lab it ships (so `grader reset` works the
same), and everything that needs the solutions refuses with a message that says so. A file whose whole content sits in day blocks that a day
does not reach is absent that day. The day's lab sheet (`sheet`) becomes README.md,
its Chinese copy beside it (`<slug>.zh.md`) README.zh.md.

    python -m grader.scaffold [DAY ...] [--check] [--force]
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from grader.course import Course, CourseError, Day
from grader.scaffold import markers, trees
from grader.scaffold.markers import MarkerError, Region
from grader.scaffold.trees import Drift, Tree, TreeError

SHEET_NAME = "README.md"


class ScaffoldError(ValueError):
    """The generator was asked for something the source cannot give."""


# Everything the generator may refuse with; callers catch these together.
ERRORS = (MarkerError, TreeError, ScaffoldError)


def _source(course: Course) -> Path:
    if course.is_student_edition:
        from grader.i18n import word
        raise ScaffoldError(word("edition.no_source"))
    if course.source is None or not Path(course.source).is_dir():
        raise ScaffoldError(f"the course has no source tree ({course.source}). Fix: set `source` in "
                            "[course] of course.toml to the directory that holds the agent's one source")
    return Path(course.source)


def _text(data: bytes) -> str | None:
    """The text of a file that has markers, else None (then it is copied byte for byte)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if markers.has_markers(text) else None


def build(course: Course, day: Day, *, lab: bool, revert: set[str] | frozenset[str] = frozenset()
          ) -> tuple[Tree, dict[str, int]]:
    """The day's lab (lab=True) or solution (with the exercise ids in `revert` as their
    scaffolds) in memory, and the permission bits of each file. In the student edition,
    the lab is its pristine copy and there is no solution."""
    if course.is_student_edition and lab and not revert:
        return pristine_lab(course, day)
    source = _source(course)
    tree: Tree = {}
    modes: dict[str, int] = {}
    found: set[str] = set()
    for rel in trees.tree_files(source, course.runtime_dirs):
        data = (source / rel).read_bytes()
        text = _text(data)
        if text is not None:
            own = [r.id for r in markers.regions(text, day=day.number, file=rel) if r.day == day.id]
            found.update(own)
            rendered = markers.render(text, day=day.number, day_id=day.id, order=course.day_order, lab=lab,
                                      revert=frozenset(revert), file=rel)
            if not rendered.strip() and text.strip():
                continue  # every line of it belongs to other days
            data = rendered.encode("utf-8")
        tree[rel] = data
        modes[rel] = stat.S_IMODE(os.stat(source / rel).st_mode)
    missing = sorted(set(revert) - found)
    if missing:
        raise ScaffoldError(f"{day.id} has no region for {', '.join(missing)}. Fix: mark it in the source "
                            f"with '# BEGIN SOLUTION {day.id} {missing[0]}' ...")
    if day.sheet is not None:
        tree[SHEET_NAME] = Path(day.sheet).read_bytes()
        modes[SHEET_NAME] = 0o644
        # each translation of the sheet beside it (<slug>.zh.md) becomes README.<lang>.md
        from grader.i18n import LANGUAGES, SOURCE, translated
        for lang in LANGUAGES:
            sheet = translated(Path(day.sheet), lang)
            if lang != SOURCE and sheet.is_file():
                name = f"README.{lang}.md"
                tree[name] = sheet.read_bytes()
                modes[name] = 0o644
    return tree, modes


def pristine_lab(course: Course, day: Day) -> tuple[Tree, dict[str, int]]:
    """The student edition's untouched copy of the day's lab (`pristine`/<slug>/), and its modes."""
    from grader.i18n import word

    folder = Path(course.pristine) / day.slug if course.pristine is not None else None
    if folder is None or not folder.is_dir():
        raise ScaffoldError(word("edition.no_pristine", day=day.id, folder=folder))
    tree = trees.read_tree(folder, course.runtime_dirs)
    modes = {rel: stat.S_IMODE(os.stat(folder / rel).st_mode) for rel in tree}
    return tree, modes


def day_regions(course: Course, day: Day) -> dict[str, Region]:
    """The day's own exercise regions by exercise id (file relative to the source tree)."""
    source = _source(course)
    found: dict[str, Region] = {}
    for rel in trees.tree_files(source, course.runtime_dirs):
        text = _text((source / rel).read_bytes())
        for region in markers.regions(text, day=day.number, file=rel) if text is not None else ():
            if region.day != day.id:
                continue
            if region.id in found:
                first = found[region.id]
                raise MarkerError(rel, region.start_line, f"exercise {day.id} {region.id} used twice (first in "
                                  f"{first.file}:{first.start_line})", "give each exercise point exactly one region")
            found[region.id] = region
    return found


def _targets(day: Day) -> tuple[tuple[str, Path, bool], ...]:
    return (("solution", Path(day.solution), False), ("lab", Path(day.lab), True))


def diff(course: Course, day: Day) -> list[Drift]:
    """How the committed solution and lab differ from what the generator makes now."""
    from grader.course.manifest import mistyped_path

    _source(course)   # the student edition has nothing to compare with: say so
    drifts = []
    for name, target, lab in _targets(day):
        wrong = mistyped_path(course, day, name)
        if wrong:   # a path course.toml got wrong: say so, not "missing"
            drifts.append(Drift(f"{name}: .", "mistyped", None, wrong))
            continue
        expected, _ = build(course, day, lab=lab)
        drifts += [Drift(f"{name}: {d.path}", d.kind, d.line, d.reason)
                   for d in trees.diff_tree(expected, target, course.runtime_dirs, what=f"{name} directory")]
    return drifts


def generate(course: Course, day: Day, *, only_lab: bool = False) -> list[Path]:
    """(Re)write the day's solution and lab from the source; returns the directories written.
    Instructor's command: the old trees are replaced without a backup (students use
    `grader reset`, which keeps one)."""
    _source(course)
    written = []
    for name, target, lab in _targets(day):
        if only_lab and not lab:
            continue
        tree, modes = build(course, day, lab=lab)   # fails on marker errors before anything moves
        trees.replace_tree(target, lambda staging, t=tree, m=modes: trees.write_tree(t, staging, m))
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """python -m grader.scaffold [DAY ...] [--check] [--force]: regenerate (or check) days."""
    args = list(sys.argv[1:] if argv is None else argv)
    check, force = "--check" in args, "--force" in args
    unknown = [a for a in args if a.startswith("--") and a not in ("--check", "--force")]
    if unknown:
        print(f"usage: python -m grader.scaffold [DAY ...] [--check] [--force] (unknown option {unknown[0]})",
              file=sys.stderr)
        return 2
    from grader.course import load_default_course
    try:
        course = load_default_course()
        days = [course.find_day(a) for a in args if not a.startswith("--")] or list(course.days)
        drifts = {day.id: diff(course, day) for day in days}
    except (*ERRORS, CourseError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for day_id, drift in drifts.items():
        for d in drift:
            print(f"drift: {day_id} {d}")
    drifted = [day for day in days if drifts[day.id]]
    # Writing what is missing loses nothing (a new day, a new file of the source): only a
    # generated file that differs, or one the generator does not make, needs --force.
    at_risk = [day for day in drifted if any(d.kind in ("differs", "extra") for d in drifts[day.id])]
    if any(d.kind == "mistyped" for drift in drifts.values() for d in drift):
        print("course.toml names a lab or solution path that looks mistyped (above): correct it first",
              file=sys.stderr)
        return 2
    if check:
        print("every solution and lab equals the generated one" if not drifted
              else f"{sum(map(len, drifts.values()))} file(s) drifted in {', '.join(d.id for d in drifted)}")
        return 1 if drifted else 0
    if at_risk and not force:
        print("the committed trees differ from the generated ones: pass --force to overwrite them "
              "(students: use `grader reset`, which keeps a backup)", file=sys.stderr)
        return 1
    for day in days:
        for path in generate(course, day):
            print(f"generated {path}")
    return 0

