"""E3 with Path.is_relative_to on the resolved paths, refusing in a guard clause."""
TARGET = "mca/tools/paths.py"
FAILS = ()


def resolve_inside(workdir, path):
    root = workdir.resolve(strict=False)
    target = root.joinpath(path).resolve()
    if not target.is_relative_to(root):
        raise OutsideWorkdir(f"path {path} points outside {root}")
    return target
