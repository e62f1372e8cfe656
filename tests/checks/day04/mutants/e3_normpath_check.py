"""E3: normalises the path with os.path.abspath and checks the prefix, without resolving links.

`..` and absolute paths are caught; a symlinked directory or file inside the workdir
that points outside is followed by the write.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-outside-refused",)


def write_file(workdir: Path, args: dict) -> str:
    root = os.path.abspath(workdir)
    target = Path(os.path.abspath(os.path.join(root, args["path"])))
    if not str(target).startswith(root + os.sep):
        raise ToolError(f"{args['path']!r} is outside the workdir")
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {args['path']}"
