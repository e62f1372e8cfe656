"""A directory as a check sees it: every file's bytes and what `stat` says of it, every folder.

For claims about files a lab changes or must leave alone: "the tree is as it was at
event 12, byte for byte" compares `contents`; "a file nobody changed was not written at
all" compares `Entry.stamp` (inode, size, modification time), which a rewrite with the
same bytes changes too. Folders are entries of their own (`name/`), so a folder left
behind, or one that is missing, is a difference like a file.
"""

from __future__ import annotations

import os
import random
import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    data: bytes | None  # None for a folder
    ino: int
    size: int
    mtime_ns: int

    @property
    def stamp(self) -> tuple[int, int, int]:
        return self.ino, self.size, self.mtime_ns


Tree = dict[str, Entry]  # relative path with / separators (a folder's ends in /) -> entry


def take(root: Path) -> Tree:
    """Every file and folder under `root` (not `root` itself); symlinks are not followed."""
    tree: Tree = {}
    root = Path(root)
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in dirs:
            path = Path(folder) / name
            info = path.lstat()
            tree[path.relative_to(root).as_posix() + "/"] = Entry(None, info.st_ino, 0, info.st_mtime_ns)
        for name in sorted(files):
            path = Path(folder) / name
            info = path.lstat()
            data = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
            tree[path.relative_to(root).as_posix()] = Entry(data, info.st_ino, info.st_size, info.st_mtime_ns)
    return tree


def contents(tree: Tree) -> dict[str, bytes | None]:
    """What `==` of two trees means byte for byte: each path's bytes (None for a folder)."""
    return {path: entry.data for path, entry in tree.items()}


def differences(seen: dict[str, bytes | None], expected: dict[str, bytes | None]) -> list[tuple[str, str]]:
    """(kind, path) for each difference, in path order: "missing" (expected, not there), "extra"
    (there, not expected), "differs" (a file whose bytes are not the expected ones)."""
    found = []
    for path in sorted(set(seen) | set(expected)):
        if path not in seen:
            found.append(("missing", path))
        elif path not in expected:
            found.append(("extra", path))
        elif seen[path] != expected[path]:
            found.append(("differs", path))
    return found


def copy(source: Path, target: Path) -> Path:
    """A copy of the folder `source` at `target` (bytes and modification times kept)."""
    shutil.copytree(source, target, symlinks=True, copy_function=shutil.copy2)
    return target


def backdate(root: Path, rng: random.Random) -> None:
    """Give every file under `root` a modification time of its own, days in the past, so a
    rewrite (which sets the time to now) shows even when the bytes are the same."""
    base = 1_600_000_000 * 10**9 + rng.randrange(10**15)
    for n, path in enumerate(sorted(p for p in Path(root).rglob("*") if p.is_file() and not p.is_symlink())):
        at = base + n * 86_400 * 10**9 + rng.randrange(10**9)
        os.utime(path, ns=(at, at))
