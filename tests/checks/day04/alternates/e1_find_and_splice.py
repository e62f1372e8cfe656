"""E1, written differently: finds the first match, looks for a second one after it, and
splices the new text in by slicing; the refusals count with str.count."""
TARGET = "mca/tools/files.py"
FAILS = ()


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:
        text = handle.read()
    old, new = args["old"], args["new"]
    if "\r\n" in text:
        old, new = (part.replace("\r\n", "\n").replace("\n", "\r\n") for part in (old, new))
    first = text.find(old) if old else -1
    if first < 0:
        raise ToolError(f"not found: {args['path']} does not contain the old text")
    if text.find(old, first + len(old)) >= 0:
        raise ToolError(f"found {text.count(old)} times in {args['path']}: add surrounding lines")
    replace_file(target, text[:first] + new + text[first + len(old):])
    return f"edited {shown(workdir, target)}"
