"""E1: counts and refuses right, but reads the file with read_text() (universal newlines).

Every \\r\\n becomes \\n on the way in and the file is written back with \\n: one edit
rewrites every line end of a Windows file.
"""
TARGET = "mca/tools/files.py"
FAILS = ("crlf-edit",)


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    text = target.read_text(encoding="utf-8")
    old, new = args["old"], args["new"]
    count = text.count(old) if old else 0
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}")
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; add context")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
