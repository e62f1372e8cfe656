"""E3: normalises the path with os.path.normpath (which folds `..` but never looks at
the disk) and checks that: a symlink inside that points out is followed later."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)

import os


def resolve_inside(workdir, path):
    root = os.path.normpath(str(workdir))
    target = os.path.normpath(os.path.join(root, path))
    if target != root and not target.startswith(root + os.sep):
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return Path(target)
