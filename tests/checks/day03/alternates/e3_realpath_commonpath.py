"""E3 with os.path: realpath both sides (links followed), then commonpath."""
TARGET = "mca/tools/paths.py"
FAILS = ()

import os


def resolve_inside(workdir, path):
    root = os.path.realpath(workdir)
    target = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, target]) != root:
        raise OutsideWorkdir(f"refused {path}: it leads outside the workdir {root}")
    return Path(target)
