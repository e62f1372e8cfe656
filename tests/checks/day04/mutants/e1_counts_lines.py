"""E1: counts the lines that hold the old text ("how many places would this edit touch?").

A one-line old text is looked for line by line and each line that holds it counts once;
a text of several lines is counted with str.count. Two copies on one line count as one,
so the edit goes through and silently replaces the first; three copies on two lines are
refused as "2 times".
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
    if not old:
        count = 0
    elif "\n" in old:
        count = text.count(old)
    else:
        count = sum(1 for line in text.splitlines() if old in line)
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}")
    if count > 1:
        raise ToolError(f"the old text is on {count} lines of {args['path']}; include more context")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
