"""The markers of the one source, and how one file is rendered for one day.

The agent's code exists once, in the course's source tree. Two kinds of marker
say what each day sees (docs/architecture.md, "The one source"):

Day blocks gate code by day number; they nest, and a block may hold several
branches, of which at most one applies to a given day::

    # [day 3+]            from day 3 on
    # [day 1-2]           days 1 and 2 only   (a block opened by itself)
    # [or day 3+]         another branch of the block just opened
    # [/day]              closes the innermost block

Exercise regions belong to one day (its id in course.toml)::

    # BEGIN SOLUTION day-07 E2
    ...reference code...
    # END SOLUTION day-07 E2
    # BEGIN SCAFFOLD day-07 E2
    # raise NotImplementedError("TODO(E2): ...")
    # END SCAFFOLD day-07 E2

On its own day a region becomes its scaffold in the lab and its solution in the
solution; on later days it is the solution. A region that survives the day blocks
on a day *before* its own is an error: code of day 7 must sit inside a `[day 7+]`
block, so day 6 can never ship it. Parsing is strict; every mistake names the file,
the line and the fix.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

# Anything that looks like a marker, even a misspelt one, so a typo is reported.
_LOOSE_REGION = re.compile(r"^\s*#\s*(BEGIN|END)\s+(SOLUTION|SCAFFOLD)\b")
_REGION = re.compile(r"^([ \t]*)# (BEGIN|END) (SOLUTION|SCAFFOLD) ([A-Za-z][\w-]*) ([A-Za-z][\w-]*)[ \t]*$")
_LOOSE_DAY = re.compile(r"^\s*#\s*\[\s*(/|or\s+)?\s*days?\b", re.IGNORECASE)
_DAY = re.compile(r"^[ \t]*# \[(day|or day) (\d+)(\+|-\d+)?\][ \t]*$")
_DAY_END = re.compile(r"^[ \t]*# \[/day\][ \t]*$")


class MarkerError(ValueError):
    """A marker mistake, with where it is and how to fix it."""

    def __init__(self, file: str | os.PathLike, line: int | None, problem: str, fix: str):
        self.file, self.line, self.problem, self.fix = str(file), line, problem, fix
        where = f"{self.file}:{line}" if line else self.file
        super().__init__(f"{where}: {problem}. Fix: {fix}")


@dataclass(frozen=True)
class Region:
    """One exercise region: where it is, its solution lines and its lab lines."""

    day: str               # the day id it belongs to, e.g. day-07
    id: str                # the exercise id, e.g. E2
    file: str
    start_line: int        # the BEGIN SOLUTION line in the source (1-based)
    end_line: int          # the END SCAFFOLD line
    indent: str
    solution: tuple[str, ...]
    scaffold: tuple[str, ...]   # uncommented

    @property
    def scaffold_text(self) -> str:
        return "".join(self.scaffold)

    @property
    def solution_text(self) -> str:
        return "".join(self.solution)


def split_lines(text: str) -> list[str]:
    """Lines with their endings kept; only '\\n' ends a line (as in editors)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def has_markers(text: str) -> bool:
    return any(_LOOSE_REGION.match(line) or _LOOSE_DAY.match(line) for line in text.split("\n"))


# --------------------------------------------------------------------------- day blocks

def _day_marker(line: str, file, lineno: int):
    """('open'|'or', first, last or None) / ('close',) for a day marker line, else None."""
    body = line.rstrip("\r\n")
    if not _LOOSE_DAY.match(body):
        return None
    if _DAY_END.match(body):
        return ("close",)
    m = _DAY.match(body)
    if not m:
        raise MarkerError(file, lineno, f"malformed day marker {body.strip()!r}",
                          "write '# [day 3+]', '# [day 1-2]', '# [day 7]', '# [or day 3+]' or '# [/day]'")
    first = int(m.group(2))
    tail = m.group(3)
    last = None if tail == "+" else (first if tail is None else int(tail[1:]))
    if last is not None and last < first:
        raise MarkerError(file, lineno, f"day range {first}-{last} is empty", "write the lower day first")
    return ("open" if m.group(1) == "day" else "or", first, last)


def _overlaps(a: tuple[int, int | None], b: tuple[int, int | None]) -> bool:
    a_last = a[1] if a[1] is not None else 10**9
    b_last = b[1] if b[1] is not None else 10**9
    return a[0] <= b_last and b[0] <= a_last


def select_day(text: str, day: int, file: str | os.PathLike = "<text>") -> list[tuple[int, str]]:
    """The (source line number, line) pairs that day `day` keeps, day markers dropped."""
    kept: list[tuple[int, str]] = []
    stack: list[dict] = []  # open blocks: opened at, branches so far, is this branch on
    for lineno, line in enumerate(split_lines(text), 1):
        marker = _day_marker(line, file, lineno)
        if marker is None:
            if all(block["on"] for block in stack):
                kept.append((lineno, line))
            continue
        if marker[0] == "close":
            if not stack:
                raise MarkerError(file, lineno, "'# [/day]' without an open day block",
                                  "remove it, or open the block with '# [day N+]'")
            stack.pop()
            continue
        span = (marker[1], marker[2])
        if marker[0] == "or":
            if not stack:
                raise MarkerError(file, lineno, "'# [or day ...]' without an open day block",
                                  "open the block first with '# [day N]'")
            block = stack[-1]
            for other in block["branches"]:
                if _overlaps(other, span):
                    raise MarkerError(file, lineno, "this branch overlaps an earlier branch of the block "
                                      f"opened at line {block['line']}", "make the day ranges disjoint")
            block["branches"].append(span)
        else:
            block = {"line": lineno, "branches": [span]}
            stack.append(block)
        block["on"] = span[0] <= day and (span[1] is None or day <= span[1])
    if stack:
        raise MarkerError(file, stack[-1]["line"], "day block is not closed", "add '# [/day]' where it ends")
    return kept


# --------------------------------------------------------------------------- regions

def _region_marker(line: str, file, lineno: int):
    """(indent, BEGIN|END, SOLUTION|SCAFFOLD, day, id) for a region marker line, else None."""
    body = line.rstrip("\r\n")
    if not _LOOSE_REGION.match(body):
        return None
    m = _REGION.match(body)
    if not m:
        raise MarkerError(file, lineno, f"malformed region marker {body.strip()!r}",
                          "write it exactly as '# BEGIN SOLUTION day-07 E2' / '# END SOLUTION day-07 E2' / "
                          "'# BEGIN SCAFFOLD day-07 E2' / '# END SCAFFOLD day-07 E2'")
    return m.groups()


def _uncomment(line: str, indent: str, file, lineno: int) -> str:
    ending = line[len(line.rstrip("\r\n")):]
    body = line[: len(line) - len(ending)]
    if body.startswith(indent + "# "):
        return indent + body[len(indent) + 2:] + ending
    if body.rstrip() == indent + "#":
        return ending or "\n"
    raise MarkerError(file, lineno, "scaffold line is not commented",
                      f"start it with {indent + '# '!r} (the markers' indentation, then '# '); "
                      "use a bare '#' for an empty line")


def parse_regions(lines: list[tuple[int, str]], file: str | os.PathLike = "<text>") -> list[str | Region]:
    """Split numbered lines into plain lines and regions, checking every marker rule."""
    out: list[str | Region] = []
    seen: dict[tuple[str, str], int] = {}
    i = 0
    while i < len(lines):
        lineno, line = lines[i]
        mk = _region_marker(line, file, lineno)
        if mk is None:
            out.append(line)
            i += 1
            continue
        indent, edge, part, day, rid = mk
        name = f"{day} {rid}"
        if (edge, part) != ("BEGIN", "SOLUTION"):
            raise MarkerError(file, lineno, f"'{edge} {part} {name}' without an open region",
                              f"a region starts with '# BEGIN SOLUTION {name}'; add it or remove this line")
        if (day, rid) in seen:
            raise MarkerError(file, lineno, f"exercise {name} used twice (first at line {seen[day, rid]})",
                              "give each exercise point exactly one region")
        seen[day, rid] = start = lineno
        expected = [("END", "SOLUTION"), ("BEGIN", "SCAFFOLD"), ("END", "SCAFFOLD")]
        bodies: list[list[tuple[int, str]]] = [[], []]
        j, stage = i + 1, 0
        while stage < 3:
            if j >= len(lines):
                raise MarkerError(file, start, f"region {name} is not closed",
                                  f"add '# {' '.join(expected[stage])} {name}' (every solution needs its "
                                  "scaffold: END SOLUTION, BEGIN SCAFFOLD, ..., END SCAFFOLD)")
            lineno2, line2 = lines[j]
            mk2 = _region_marker(line2, file, lineno2)
            if mk2 is None:
                if stage == 1:
                    raise MarkerError(file, lineno2, f"'# END SOLUTION {name}' is not followed by its scaffold",
                                      f"put '# BEGIN SCAFFOLD {name}' on the very next line")
                bodies[0 if stage == 0 else 1].append((lineno2, line2))
                j += 1
                continue
            ind2, edge2, part2, day2, rid2 = mk2
            if (edge2, part2) != expected[stage]:
                what = "nested region" if edge2 == "BEGIN" else "mismatched marker"
                raise MarkerError(file, lineno2, f"{what}: found '{edge2} {part2} {day2} {rid2}' inside "
                                  f"region {name} (line {start})",
                                  f"close region {name} first with '# {' '.join(expected[stage])} {name}'")
            if (day2, rid2) != (day, rid):
                raise MarkerError(file, lineno2, f"marker names {day2} {rid2} but closes region {name} "
                                  f"(line {start})", f"write '# {edge2} {part2} {name}'")
            if ind2 != indent:
                raise MarkerError(file, lineno2, f"marker indented differently from '# BEGIN SOLUTION {name}'",
                                  "indent all four markers of a region at the same level as the code")
            stage += 1
            j += 1
        scaffold = tuple(_uncomment(text, indent, file, n) for n, text in bodies[1])
        out.append(Region(day, rid, str(file), start, lines[j - 1][0], indent,
                          tuple(text for _, text in bodies[0]), scaffold))
        i = j
    return out


# --------------------------------------------------------------------------- one file, one day

def render(text: str, *, day: int, day_id: str, order: dict[str, int], lab: bool,
           revert: frozenset[str] | set[str] = frozenset(), file: str | os.PathLike = "<text>") -> str:
    """The text of one source file as day `day` (id `day_id`) has it.

    `order` maps every day id to its number. `lab`: the day's own regions become
    their scaffolds; otherwise they stay solutions except the exercise ids in `revert`.
    """
    pieces = []
    for piece in parse_regions(select_day(text, day, file), file):
        if isinstance(piece, str):
            pieces.append(piece)
            continue
        if piece.day not in order:
            raise MarkerError(file, piece.start_line, f"region {piece.day} {piece.id} names an unknown day",
                              f"use a day id from course.toml ({', '.join(order)})")
        own = order[piece.day]
        if own > day:
            raise MarkerError(file, piece.start_line, f"region {piece.day} {piece.id} would appear on day {day}",
                              f"put it inside a '# [day {own}+]' block")
        scaffold = own == day and (lab or piece.id in revert)
        pieces.extend(piece.scaffold if scaffold else piece.solution)
    return "".join(pieces)


def regions(text: str, *, day: int, file: str | os.PathLike = "<text>") -> list[Region]:
    """The regions present on day `day` (after its day blocks)."""
    return [p for p in parse_regions(select_day(text, day, file), file) if isinstance(p, Region)]
