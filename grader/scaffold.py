"""Generate labs from solutions: the reference solution is the single source.

A solution file marks each exercise point with a region (format in
docs/architecture.md, "Exercise regions"):

    # BEGIN SOLUTION E2
    ...reference code...
    # END SOLUTION E2
    # BEGIN SCAFFOLD E2
    # raise NotImplementedError("TODO(E2): ...")
    # END SCAFFOLD E2

The lab gets the scaffold lines with one "# " removed after the markers'
indentation; `verify` also builds solutions with a single region reverted.
Parsing is strict: a marker mistake is an error naming the file, the line and
the fix, never a silently wrong lab.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

# Never generated, copied or compared: bytecode and run-time state of a lab.
IGNORED_DIRS = frozenset({"__pycache__", ".sessions", ".grader", ".pytest_cache"})
IGNORED_SUFFIXES = (".pyc", ".pyo")

# Anything that looks like a marker, even a misspelt one, so a typo is reported.
_LOOSE = re.compile(r"^\s*#\s*(BEGIN|END)\s+(SOLUTION|SCAFFOLD)\b")
_EXACT = re.compile(r"^([ \t]*)# (BEGIN|END) (SOLUTION|SCAFFOLD) ([A-Za-z][\w-]*)[ \t]*$")


class ScaffoldError(ValueError):
    """A region marker mistake, with where it is and how to fix it."""

    def __init__(self, file: str | os.PathLike, line: int | None, problem: str, fix: str):
        self.file, self.line, self.problem, self.fix = str(file), line, problem, fix
        where = f"{self.file}:{line}" if line else self.file
        super().__init__(f"{where}: {problem}. Fix: {fix}")


@dataclass(frozen=True)
class Region:
    """One exercise region: where it is, its solution lines and its lab lines."""

    id: str
    file: str              # path as given to parse(); relative to the tree in regions()
    start_line: int        # the BEGIN SOLUTION line (1-based)
    end_line: int          # the END SCAFFOLD line
    indent: str
    solution: tuple[str, ...]   # the reference lines, as in the file
    scaffold: tuple[str, ...]   # the lab lines, uncommented
    raw: tuple[str, ...]        # every line from BEGIN SOLUTION to END SCAFFOLD

    @property
    def scaffold_text(self) -> str:
        return "".join(self.scaffold)

    @property
    def solution_text(self) -> str:
        return "".join(self.solution)


@dataclass(frozen=True)
class Drift:
    """One way the committed lab differs from the generated one."""

    path: str              # relative to the lab dir, '/'-separated
    kind: str              # "differs", "missing" (not in the lab), "extra" (only in the lab)
    line: int | None       # first differing line, for "differs" text files
    reason: str            # one line for the instructor

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def _split_lines(text: str) -> list[str]:
    """Lines with their endings kept; only '\\n' ends a line (as in editors)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _marker(line: str, file, lineno: int):
    """(indent, BEGIN|END, SOLUTION|SCAFFOLD, id) for a marker line, else None."""
    body = line.rstrip("\r\n")
    if not _LOOSE.match(body):
        return None
    m = _EXACT.match(body)
    if not m:
        raise ScaffoldError(file, lineno, f"malformed region marker {body.strip()!r}",
                            "write it exactly as '# BEGIN SOLUTION E2' / '# END SOLUTION E2' / "
                            "'# BEGIN SCAFFOLD E2' / '# END SCAFFOLD E2', with the exercise id")
    return m.groups()


def _uncomment(line: str, indent: str, file, lineno: int) -> str:
    ending = line[len(line.rstrip("\r\n")):]
    body = line[: len(line) - len(ending)]
    if body.startswith(indent + "# "):
        return indent + body[len(indent) + 2:] + ending
    if body.rstrip() == indent + "#":
        return ending or "\n"
    raise ScaffoldError(file, lineno, "scaffold line is not commented",
                        f"start it with {indent + '# '!r} (the markers' indentation, then '# '); "
                        "use a bare '#' for an empty line")


def parse(text: str, file: str | os.PathLike = "<text>") -> list[str | Region]:
    """Split a file into plain lines and regions, checking every marker rule."""
    lines = _split_lines(text)
    out: list[str | Region] = []
    seen: dict[str, int] = {}
    i = 0
    while i < len(lines):
        mk = _marker(lines[i], file, i + 1)
        if mk is None:
            out.append(lines[i])
            i += 1
            continue
        indent, edge, part, rid = mk
        if (edge, part) != ("BEGIN", "SOLUTION"):
            raise ScaffoldError(file, i + 1, f"'{edge} {part} {rid}' without an open region",
                                f"a region starts with '# BEGIN SOLUTION {rid}'; add it or remove this line")
        if rid in seen:
            raise ScaffoldError(file, i + 1, f"exercise id {rid} used twice (first at line {seen[rid]})",
                                "give each exercise point exactly one region")
        seen[rid] = start = i + 1
        expected = [("END", "SOLUTION"), ("BEGIN", "SCAFFOLD"), ("END", "SCAFFOLD")]
        bodies: list[list[str]] = [[], []]   # solution lines, scaffold lines
        j, stage = i + 1, 0
        while stage < 3:
            if j >= len(lines):
                raise ScaffoldError(file, start, f"region {rid} is not closed",
                                    f"add '# {' '.join(expected[stage])} {rid}' (every solution needs "
                                    "its scaffold: END SOLUTION, BEGIN SCAFFOLD, ..., END SCAFFOLD)")
            mk2 = _marker(lines[j], file, j + 1)
            if mk2 is None:
                if stage == 1:
                    raise ScaffoldError(file, j + 1, f"'# END SOLUTION {rid}' is not followed by its scaffold",
                                        f"put '# BEGIN SCAFFOLD {rid}' on the very next line")
                bodies[0 if stage == 0 else 1].append(lines[j])
                j += 1
                continue
            ind2, edge2, part2, rid2 = mk2
            if (edge2, part2) != expected[stage]:
                what = "nested region" if edge2 == "BEGIN" else "mismatched marker"
                raise ScaffoldError(file, j + 1, f"{what}: found '{edge2} {part2} {rid2}' inside region "
                                    f"{rid} (line {start})",
                                    f"close region {rid} first with '# {' '.join(expected[stage])} {rid}'")
            if rid2 != rid:
                raise ScaffoldError(file, j + 1, f"marker names {rid2} but closes region {rid} (line {start})",
                                    f"write '# {edge2} {part2} {rid}'")
            if ind2 != indent:
                raise ScaffoldError(file, j + 1, f"marker indented differently from '# BEGIN SOLUTION {rid}'",
                                    "indent all four markers of a region at the same level as the code")
            stage += 1
            j += 1
        scaffold = tuple(_uncomment(line, indent, file, start + len(bodies[0]) + 3 + k)
                         for k, line in enumerate(bodies[1]))
        out.append(Region(rid, str(file), start, j, indent, tuple(bodies[0]), scaffold, tuple(lines[i:j])))
        i = j
    return out


def render(text: str, revert: set[str] | None = None, keep_markers: bool = False,
           *, file: str | os.PathLike = "<text>") -> str:
    """Lab text (revert=None: every region becomes its scaffold), or a solution in
    which only the ids in `revert` become their scaffold. Markers are dropped,
    unless keep_markers: then regions that are not reverted stay exactly as written."""
    pieces = []
    for piece in parse(text, file):
        if isinstance(piece, str):
            pieces.append(piece)
        elif revert is None or piece.id in revert:
            pieces.extend(piece.scaffold)
        else:
            pieces.extend(piece.raw if keep_markers else piece.solution)
    return "".join(pieces)


def _ignored(name: str) -> bool:
    return name in IGNORED_DIRS or name.endswith(IGNORED_SUFFIXES)


def tree_files(root: Path) -> list[str]:
    """Relative '/'-paths of every file under root, skipping run-time junk; sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not _ignored(d))
        rel = Path(dirpath).relative_to(root)
        found += [(rel / f).as_posix() for f in filenames if not _ignored(f)]
    return sorted(found)


def _regions_text(data: bytes) -> str | None:
    """The text of a file that has region markers, else None (copied byte for byte)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if any(_LOOSE.match(line) for line in text.split("\n")) else None


def build(src_dir: Path, revert: set[str] | None = None) -> dict[str, bytes]:
    """The generated tree in memory: relative path -> bytes."""
    src_dir = Path(src_dir)
    if not src_dir.is_dir():
        raise ScaffoldError(src_dir, None, "solution directory not found",
                            "check the day's `solution` path in course.toml")
    tree, ids = {}, set()
    for rel in tree_files(src_dir):
        data = (src_dir / rel).read_bytes()
        text = _regions_text(data)
        if text is not None:
            ids |= {p.id for p in parse(text, rel) if isinstance(p, Region)}
            data = render(text, revert, file=rel).encode("utf-8")
        tree[rel] = data
    missing = sorted((revert or set()) - ids)
    if missing:
        raise ScaffoldError(src_dir, None, f"no region for {', '.join(missing)}",
                            f"mark the exercise with '# BEGIN SOLUTION {missing[0]}' ... in the solution")
    return tree


def write_tree(tree: dict[str, bytes], dst_dir: Path, mode_src: Path | None = None) -> None:
    """Write an in-memory tree into dst_dir (which must not exist or be empty);
    with mode_src, each file gets the mode of the same file there."""
    dst_dir = Path(dst_dir)
    if dst_dir.exists() and (not dst_dir.is_dir() or any(dst_dir.iterdir())):
        raise ScaffoldError(dst_dir, None, "destination exists and is not an empty directory",
                            "generate into a new directory (replace_tree swaps it in safely)")
    dst_dir.mkdir(parents=True, exist_ok=True)
    for rel, data in tree.items():
        target = dst_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if mode_src is not None:
            shutil.copymode(Path(mode_src) / rel, target)


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under root (run-time junk skipped) as relative path -> bytes."""
    return {rel: (Path(root) / rel).read_bytes() for rel in tree_files(Path(root))}


def generate(src_dir: Path, dst_dir: Path, revert: set[str] | None = None) -> list[str]:
    """Write the generated tree (the lab, or with `revert` a solution with those
    regions reverted) into dst_dir, which must not exist or be empty. Files without
    regions are copied byte for byte; modes are kept. Returns the relative paths."""
    tree = build(Path(src_dir), revert)
    write_tree(tree, Path(dst_dir), mode_src=Path(src_dir))
    return list(tree)


def replace_tree(target: Path, fill) -> None:
    """Replace directory `target` by a new tree without ever leaving half of one:
    fill(staging) writes the new tree beside target, then the two are swapped and
    the old tree removed. Callers keep a copy of the old tree first if it matters."""
    target = Path(target)
    tag = uuid.uuid4().hex[:8]
    staging = target.parent / f".{target.name}.new-{tag}"
    old = target.parent / f".{target.name}.old-{tag}"
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fill(staging)
        staging.mkdir(exist_ok=True)
        if target.exists():
            os.rename(target, old)
        try:
            os.rename(staging, target)
        except OSError:
            if old.exists():
                os.rename(old, target)   # put the previous tree back
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def _root(day, root: Path | None, attr: str) -> Path:
    path = Path(getattr(day, attr))
    return path if path.is_absolute() or root is None else Path(root) / path


def generate_lab(day, root: Path | None = None) -> Path:
    """Regenerate day.lab from day.solution (instructor's command: the old lab is
    replaced without a backup; students use `grader reset`, which keeps one)."""
    lab = _root(day, root, "lab")
    solution = _root(day, root, "solution")
    build(solution)   # fail on marker errors before touching anything
    replace_tree(lab, lambda staging: generate(solution, staging))
    return lab


def _first_diff_line(a: bytes, b: bytes) -> int | None:
    la, lb = a.split(b"\n"), b.split(b"\n")
    for n, (x, y) in enumerate(zip(la, lb), 1):
        if x != y:
            return n
    return min(len(la), len(lb)) + 1 if len(la) != len(lb) else None


def diff_trees(expected: dict[str, bytes], lab_dir: Path) -> list[Drift]:
    lab_dir = Path(lab_dir)
    if not lab_dir.is_dir():
        what = "is a file, not a directory" if lab_dir.exists() else "does not exist"
        return [Drift(".", "missing", None, f"the lab directory {lab_dir} {what}")]
    actual = set(tree_files(lab_dir))
    drifts = []
    for rel in sorted(set(expected) | actual):
        if rel not in actual:
            drifts.append(Drift(rel, "missing", None, "missing from the lab (the generator produces it)"))
        elif rel not in expected:
            drifts.append(Drift(rel, "extra", None, "only in the lab (not generated from the solution)"))
        else:
            data = (lab_dir / rel).read_bytes()
            if data != expected[rel]:
                line = _first_diff_line(expected[rel], data)
                at = f" from line {line}" if line else " (same lines, different bytes)"
                drifts.append(Drift(rel, "differs", line, f"differs from the generated file{at}"))
    return drifts


def diff_lab(day, root: Path | None = None) -> list[Drift]:
    """How the committed lab differs from what the generator produces now."""
    return diff_trees(build(_root(day, root, "solution")), _root(day, root, "lab"))


def regions(day, root: Path | None = None) -> dict[str, Region]:
    """Every region of the day's solution by exercise id (file relative to the solution)."""
    solution = _root(day, root, "solution")
    found: dict[str, Region] = {}
    for rel, data in ((r, (solution / r).read_bytes()) for r in tree_files(solution)):
        text = _regions_text(data)
        for piece in parse(text, rel) if text is not None else ():
            if isinstance(piece, Region):
                if piece.id in found:
                    first = found[piece.id]
                    raise ScaffoldError(rel, piece.start_line, f"exercise id {piece.id} used twice "
                                        f"(first in {first.file}:{first.start_line})",
                                        "give each exercise point exactly one region")
                found[piece.id] = piece
    return found


def main(argv: list[str] | None = None) -> int:
    """python -m grader.scaffold DAY [--check] [--force]: regenerate (or check) a lab."""
    args = list(sys.argv[1:] if argv is None else argv)
    check, force = "--check" in args, "--force" in args
    names = [a for a in args if not a.startswith("--")]
    if len(names) != 1:
        print("usage: python -m grader.scaffold DAY [--check] [--force]", file=sys.stderr)
        return 2
    from grader.backups import resolve_day, load_default_course
    from grader.course import CourseError
    try:
        course = load_default_course()
        day = resolve_day(course, names[0])
        drift = diff_lab(day, course.root)
    except (ScaffoldError, CourseError, LookupError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for d in drift:
        print(f"drift: {d}")
    if check:
        print("lab equals the generated lab" if not drift else f"{len(drift)} file(s) drifted")
        return 1 if drift else 0
    if drift and not force and _root(day, course.root, "lab").exists():
        print("the lab differs from the generated one: pass --force to overwrite it "
              "(students: use `grader reset`, which keeps a backup)", file=sys.stderr)
        return 1
    lab = generate_lab(day, course.root)
    print(f"generated {lab}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
