"""E1: refuses zero and many, but the refusal of many does not say how many.

"ambiguous edit" tells the model something is wrong, not how wrong: it cannot tell
whether one more line of context will do.
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
    if text.count(old) != 1:
        raise ToolError(f"the edit is ambiguous in {args['path']}; add more context")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
