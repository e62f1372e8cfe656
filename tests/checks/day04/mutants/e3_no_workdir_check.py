"""E3: writes whole files atomically, but takes the path as given (workdir / path).

`../x`, an absolute path and a symlink that leads out all land outside the workdir:
Path's `/` keeps an absolute right-hand side as it is.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-outside-refused",)


def write_file(workdir: Path, args: dict) -> str:
    target = workdir / args["path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {args['path']}"
