"""E3: atomic for an existing file, but a new one is created with Path.write_text
("nothing is there yet, so nothing can be half overwritten").

The name appears the moment write_text opens it, empty, and fills as it goes: a kill in
between leaves a truncated file that looks finished.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)


def write_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        replace_file(target, args["content"])
    else:
        target.write_text(args["content"], encoding="utf-8", newline="")
    return f"wrote {len(args['content'])} characters to {shown(workdir, target)}"
