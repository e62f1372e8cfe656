"""E3: resolves with strict=True ("the path must exist"): a path out to something that does
not exist raises FileNotFoundError before the inside test, so it escapes the registry as
an exception instead of coming back as a refusal naming the path."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    root = workdir.resolve()
    target = (root / path).resolve(strict=True)
    if target != root and root not in target.parents:
        raise OutsideWorkdir(f"{path!r} is outside the workdir; use a path inside {root}")
    return target
