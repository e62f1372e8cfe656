"""E3: refuses paths whose text looks dangerous: a `..` part or a leading slash.

The text is not the place: a symlink inside the workdir leads out with no `..` in
sight, and `sub/../file`, which stays inside, is refused.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-outside-refused",)


def write_file(workdir: Path, args: dict) -> str:
    path = args["path"]
    if path.startswith("/") or ".." in Path(path).parts:
        raise ToolError(f"{path!r} is outside the workdir")
    target = workdir / path
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {path}"
