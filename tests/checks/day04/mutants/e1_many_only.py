"""E1: refuses more than one match, but lets zero matches through.

`count > 1` is checked; with a count of 0 the replace changes nothing, the file is
rewritten as it was, and the model reads "edited" about an edit that never happened.
"""
TARGET = "mca/tools/files.py"
FAILS = ("edit-missing-refused",)


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:
        text = handle.read()
    old, new = args["old"], args["new"]
    if "\r\n" in text:
        old, new = (part.replace("\r\n", "\n").replace("\n", "\r\n") for part in (old, new))
    count = text.count(old)
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; add context")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
