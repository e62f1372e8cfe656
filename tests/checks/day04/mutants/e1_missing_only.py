"""E1: refuses text that is not there, then replaces the first occurrence.

The student handled "not found" (it raised an exception in testing) but never thought
of "found twice": an ambiguous edit lands on the first match.
"""
TARGET = "mca/tools/files.py"
FAILS = ("edit-ambiguous-refused",)


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:
        text = handle.read()
    old, new = args["old"], args["new"]
    if "\r\n" in text:
        old, new = (part.replace("\r\n", "\n").replace("\n", "\r\n") for part in (old, new))
    if old not in text:
        raise ToolError(f"the old text was not found in {args['path']}")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
