"""E1: counts right and refuses right, but writes the file first ("save, then report").

The bytes stay the same when the edit is refused, yet the file is rewritten: a new
inode and mtime, an editor's "file changed on disk", a build that reruns.
"""
TARGET = "mca/tools/files.py"
FAILS = ("edit-ambiguous-refused", "edit-missing-refused")


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:
        text = handle.read()
    old, new = args["old"], args["new"]
    if "\r\n" in text:
        old, new = (part.replace("\r\n", "\n").replace("\n", "\r\n") for part in (old, new))
    count = text.count(old) if old else 0
    replace_file(target, text.replace(old, new, 1) if count == 1 else text)
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}")
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; add context")
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
