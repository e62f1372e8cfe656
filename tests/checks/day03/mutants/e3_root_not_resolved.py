"""E3: resolves the target but only makes the workdir absolute: when the workdir's own path
goes through a symlink (a linked home, /tmp on macOS), every resolved target looks outside
and every path, even one inside, is refused."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    root = workdir.absolute()
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise OutsideWorkdir(f"{path!r} is outside the workdir; use a path inside {root}")
    return target
