"""E3: the right test, but raises PermissionError ("that is what it is"): only a
ToolError becomes a result, so the refusal escapes the registry as an exception."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    root = workdir.resolve()
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise PermissionError(f"{path!r} is outside the workdir")
    return target
