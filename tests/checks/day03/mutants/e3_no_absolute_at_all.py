"""E3: correct for relative paths, but refuses every absolute path, even one inside the
workdir (models often give back the absolute paths they were shown)."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    if Path(path).is_absolute():
        raise OutsideWorkdir(f"{path!r} is an absolute path; give one relative to the workdir")
    root = workdir.resolve()
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return target
