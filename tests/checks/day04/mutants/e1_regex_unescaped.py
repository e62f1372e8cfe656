"""E1: counts and replaces with re.findall/re.sub on the old text, not escaped: a `.`
in it matches any character, and `(`, `[` or `+` stop it from matching itself."""
TARGET = "mca/tools/files.py"
FAILS = ("edit-missing-refused",)
MAYBE = ("edit-ambiguous-refused", "crlf-edit")  # only when the drawn text holds brackets


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:
        text = handle.read()
    old, new = args["old"], args["new"]
    if "\r\n" in text:
        old, new = (part.replace("\r\n", "\n").replace("\n", "\r\n") for part in (old, new))
    try:
        count = len(re.findall(old, text)) if old else 0
    except re.error:
        count = 0
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}")
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; include more lines")
    replace_file(target, re.sub(old, lambda _: new, text, count=1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
