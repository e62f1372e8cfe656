"""The search for solution code in an edition (`find_leaks`): every exercise region of the
source, read on every day it appears; what is distinctive in it; where an edition repeats it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader import integrity, scaffold
from grader.course import Course
from grader.i18n import word
from grader.release.layout import PRISTINE_DIR, Edition
from grader.scaffold import markers, trees

# What counts as a quoted solution (find_leaks): one line this long, or two lines in a row
# of which one is at least SHORT_LINE long, that no lab of the region's day (or earlier)
# shows and the grader's own machinery does not use for its own ends.
LONG_LINE = 32
SHORT_LINE = 12


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
    """Every exercise region of the source by (day, exercise), as grader/scaffold/markers.py parses
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
