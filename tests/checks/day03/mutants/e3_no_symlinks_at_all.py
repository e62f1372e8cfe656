"""E3: refuses every symlink ("links are dangerous"), even one that points to a file
inside the workdir."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    root = workdir.resolve()
    if (root / path).is_symlink():
        raise OutsideWorkdir(f"{path!r} is a symlink")
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return target
