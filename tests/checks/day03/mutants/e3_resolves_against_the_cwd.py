"""E3: resolves the path by itself (`Path(path).resolve()`), so a relative path is taken
from the directory the agent was started in, not from the workdir. It works when the
two are the same - `python -m mca` from inside the workspace - and nowhere else."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused", "truncation-declared", "tail-kept", "bad-args-become-result", "list-and-grep")


def resolve_inside(workdir, path):
    root = workdir.resolve()
    target = Path(path).resolve()
    if target != root and root not in target.parents:
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return target
