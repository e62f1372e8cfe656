"""E1: counts the lines that equal the old text ("an edit replaces a line").

Right for the mock's one-line fix, wrong for a piece inside a line (counted 0 where it
appears several times) and for old text of two lines (never found).
"""
TARGET = "mca/tools/files.py"
FAILS = ("edit-ambiguous-refused", "crlf-edit")


def edit_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:
        text = handle.read()
    old, new = args["old"], args["new"]
    eol = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(eol)
    count = lines.count(old)
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}")
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; add context")
    lines[lines.index(old)] = new.replace("\n", eol)
    replace_file(target, eol.join(lines))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"
