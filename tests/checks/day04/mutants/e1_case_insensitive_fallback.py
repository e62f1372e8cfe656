"""E1: counts exactly, but when the old text is not found, retries ignoring case and
edits a unique case-insensitive match ("the model just got the capital wrong")."""
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
    count = text.count(old) if old else 0
    if count == 0 and old:
        found = [m.start() for m in re.finditer(re.escape(old), text, re.IGNORECASE)]
        if len(found) == 1:
            at = found[0]
            replace_file(target, text[:at] + new + text[at + len(old):])
            return f"edited {shown(workdir, target)}: replaced 1 occurrence"
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}")
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; include more lines")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
