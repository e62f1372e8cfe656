"""Symlinks a check plants in a child's scratch tree.

In a hermetic run the scratch root appears to the child at another path (grader/spawn/
hermetic.py, `PathMap`), so a link holding an absolute host path would lead nowhere in the
view. A relative target leads to the same file on both sides: the tree under the scratch
root is the same, only its place differs.
"""

from __future__ import annotations

import os
from pathlib import Path


def symlink(link: Path, target: Path, *, directory: bool = False) -> None:
    """Make `link` point at `target` by a relative path (see the module docstring)."""
    link, target = Path(link), Path(target)
    os.symlink(os.path.relpath(target, link.parent), link, target_is_directory=directory)
