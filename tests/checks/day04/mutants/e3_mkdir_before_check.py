"""E3: atomic and refuses every path outside, but makes the parent directories first
and checks the path afterwards: a refused `../new/dirs/x` leaves new directories outside."""
TARGET = "mca/tools/files.py"
FAILS = ("write-outside-refused",)


def write_file(workdir: Path, args: dict) -> str:
    (Path(workdir) / args["path"]).parent.mkdir(parents=True, exist_ok=True)
    target = resolve_inside(workdir, args["path"])
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {shown(workdir, target)}"
