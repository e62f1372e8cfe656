"""E3: resolves, then compares with `str.startswith`: /work/ws-old starts with /work/ws,
so a neighbouring directory whose name starts like the workdir's counts as inside."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    root = workdir.resolve()
    target = (root / path).resolve()
    if not str(target).startswith(str(root)):
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return target
