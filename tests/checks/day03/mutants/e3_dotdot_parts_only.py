"""E3: refuses a path with a `..` part and takes everything else as given: an absolute
path elsewhere and a symlink that points out both walk through."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    if ".." in Path(path).parts:
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return workdir / path
