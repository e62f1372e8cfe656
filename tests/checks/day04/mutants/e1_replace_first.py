"""E1: the tutorial "fix" of the trap: replace(old, new, 1), with no count at all.

Never edits two places at once, but silently edits the first of several, and a text
that is not there "succeeds" (the file is rewritten unchanged and the model is told
it was edited).
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
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
