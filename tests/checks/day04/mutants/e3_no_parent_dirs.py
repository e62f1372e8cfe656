"""E3: inside the workdir and atomic, but never makes missing parent directories.

A model that writes `src/pkg/new.py` into a fresh project gets an error for a path
that is perfectly fine.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-outside-refused",)


def write_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {shown(workdir, target)}"
