"""Directory trees held in memory (relative path -> bytes), written, swapped and compared.

The generator builds every day's lab and solution as such a tree, `verify` grades
trees written to temp dirs, and drift detection compares a tree with a directory.
"""
from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

# Never generated, copied or compared: bytecode, caches and the grader's own state.
# A course adds its agent's run-time directories (course.toml, [course.agent]).
IGNORED_NAMES = frozenset({"__pycache__", ".grader", ".pytest_cache", ".git", ".venv", "venv"})
IGNORED_SUFFIXES = (".pyc", ".pyo")

Tree = dict[str, bytes]


@dataclass(frozen=True)
class Drift:
    """One way a directory differs from the tree it should hold."""

    path: str              # relative, '/'-separated
    kind: str              # "differs", "missing" (not in the dir), "extra" (only in the dir), "mistyped" (course.toml's path)
    line: int | None       # first differing line, for "differs" text files
    reason: str            # one line for the instructor

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def _ignored(name: str, extra: frozenset[str]) -> bool:
    return name in IGNORED_NAMES or name in extra or name.endswith(IGNORED_SUFFIXES)


def tree_files(root: Path, ignored: frozenset[str] = frozenset()) -> list[str]:
    """Relative '/'-paths of every file under root, skipping run-time junk; sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not _ignored(d, ignored))
        rel = Path(dirpath).relative_to(root)
        found += [(rel / f).as_posix() for f in filenames if not _ignored(f, ignored)]
    return sorted(found)


def read_tree(root: Path, ignored: frozenset[str] = frozenset()) -> Tree:
    return {rel: (Path(root) / rel).read_bytes() for rel in tree_files(Path(root), ignored)}


class TreeError(ValueError):
    """A tree cannot be written where it was asked to go."""


def write_tree(tree: Tree, dst_dir: Path, modes: dict[str, int] | None = None) -> None:
    """Write a tree into dst_dir, which must not exist or be empty; `modes` gives
    permission bits by relative path (executable scripts stay executable)."""
    dst_dir = Path(dst_dir)
    if dst_dir.exists() and (not dst_dir.is_dir() or any(dst_dir.iterdir())):
        raise TreeError(f"{dst_dir}: destination exists and is not an empty directory. "
                        "Fix: write into a new directory (replace_tree swaps it in safely).")
    dst_dir.mkdir(parents=True, exist_ok=True)
    for rel, data in tree.items():
        target = dst_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if modes and rel in modes:
            os.chmod(target, modes[rel])


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


def replace_contents(target: Path, fill) -> None:
    """Replace what directory `target` holds, keeping the directory itself (its inode):
    a shell standing in it stays in a live directory. fill(staging) writes the new tree
    beside target; then target's entries are moved aside and the new ones moved in, each
    by a rename on the same file system. If a move fails (or is interrupted) the moves
    done so far are undone, so target holds either its old entries or the new ones.
    A missing target is simply created from the staging tree."""
    target = Path(target)
    if not target.exists():
        replace_tree(target, fill)
        return
    tag = uuid.uuid4().hex[:8]
    staging = target.parent / f".{target.name}.new-{tag}"
    old = target.parent / f".{target.name}.old-{tag}"
    moved_out: list[str] = []
    moved_in: list[str] = []
    keep_old = False
    try:
        fill(staging)
        staging.mkdir(exist_ok=True)
        old.mkdir()
        try:
            for entry in sorted(os.listdir(target)):
                os.rename(target / entry, old / entry)
                moved_out.append(entry)
            for entry in sorted(os.listdir(staging)):
                os.rename(staging / entry, target / entry)
                moved_in.append(entry)
        except BaseException:
            try:
                for entry in reversed(moved_in):
                    os.rename(target / entry, staging / entry)
                for entry in reversed(moved_out):
                    os.rename(old / entry, target / entry)
            except OSError as undo:
                keep_old = True        # it holds what could not be put back
                raise TreeError(f"{target} could not be put back as it was ({undo}); its previous "
                                f"contents are in {old}") from undo
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if not keep_old:
            shutil.rmtree(old, ignore_errors=True)


def _first_diff_line(a: bytes, b: bytes) -> int | None:
    la, lb = a.split(b"\n"), b.split(b"\n")
    for n, (x, y) in enumerate(zip(la, lb), 1):
        if x != y:
            return n
    return min(len(la), len(lb)) + 1 if len(la) != len(lb) else None


def diff_tree(expected: Tree, directory: Path, ignored: frozenset[str] = frozenset(),
              what: str = "directory") -> list[Drift]:
    """How `directory` differs from `expected`, file by file."""
    directory = Path(directory)
    if not directory.is_dir():
        state = "is a file, not a directory" if directory.exists() else "does not exist"
        return [Drift(".", "missing", None, f"the {what} {directory} {state}")]
    actual = set(tree_files(directory, ignored))
    drifts = []
    for rel in sorted(set(expected) | actual):
        if rel not in actual:
            drifts.append(Drift(rel, "missing", None, "missing (the generator produces it)"))
        elif rel not in expected:
            drifts.append(Drift(rel, "extra", None, "not generated from the source"))
        else:
            data = (directory / rel).read_bytes()
            if data != expected[rel]:
                line = _first_diff_line(expected[rel], data)
                at = f" from line {line}" if line else " (same lines, different bytes)"
                drifts.append(Drift(rel, "differs", line, f"differs from the generated file{at}"))
    return drifts


# Bytecode and caches a lab gathers by being run: not the student's work.
CACHE_NAMES = frozenset({"__pycache__", ".pytest_cache"})


def is_untouched(root: Path, tree: Tree) -> bool:
    """True when directory `root` holds exactly `tree`: the same files with the same bytes,
    no other file, directory or link anywhere (hidden ones, run-time and .git/.venv
    included), apart from bytecode caches. Such a lab has nothing worth a backup."""
    root = Path(root)
    dirs = {p for rel in tree for p in Path(rel).parents if str(p) != "."}
    seen: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        for name in list(dirnames):
            path = Path(dirpath) / name
            if name in CACHE_NAMES:
                dirnames.remove(name)
            elif path.is_symlink() or (rel_dir / name) not in dirs:
                return False
        for name in filenames:
            if name.endswith(IGNORED_SUFFIXES):
                continue
            rel = (rel_dir / name).as_posix()
            path = Path(dirpath) / name
            if rel not in tree or path.is_symlink() or path.read_bytes() != tree[rel]:
                return False
            seen.add(rel)
    return seen == set(tree)


def fingerprint(root: Path, ignored: frozenset[str] = frozenset()) -> str:
    """sha256 of a directory's files (paths and bytes, run-time junk skipped): the same
    value means the same lab, so a score recorded for it still holds."""
    import hashlib

    digest = hashlib.sha256()
    for rel in tree_files(Path(root), ignored):
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        try:
            digest.update((Path(root) / rel).read_bytes())
        except OSError:
            digest.update(b"\1unreadable")
        digest.update(b"\0")
    return digest.hexdigest()
