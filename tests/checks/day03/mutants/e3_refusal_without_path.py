"""E3: the right test, and a refusal that says only "access denied": the model cannot
tell which of its paths was wrong."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    root = workdir.resolve()
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise OutsideWorkdir("access denied: outside the workdir")
    return target
