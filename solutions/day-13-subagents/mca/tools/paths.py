"""Keep every tool inside the workdir.

The model chooses the paths, so a path is untrusted input: ``../../etc/passwd``, an
absolute path elsewhere, or a symlink inside the workdir that points out of it must
be refused, not followed. Resolving first (which also follows symlinks) and then
checking the result closes all three doors at once.
"""

from __future__ import annotations

from pathlib import Path

from .base import ToolError


class OutsideWorkdir(ToolError):
    """A path the model gave points outside the workdir."""


def resolve_inside(workdir: Path, path: str) -> Path:
    """The absolute path for ``path`` (relative to the workdir), if it stays inside it."""
    root = workdir.resolve()
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise OutsideWorkdir(f"{path!r} is outside the workdir; use a path inside {root}")
    return target


def shown(workdir: Path, target: Path) -> str:
    """A path as the model should see it: relative to the workdir, with / separators."""
    relative = target.relative_to(workdir.resolve()).as_posix()
    return relative or "."
