"""E3: stays inside the workdir and makes the parent directories, but writes in place.

open(target, "w") empties the file first and fills it afterwards: a writer killed in
between leaves an empty or half-written file, and the old content is gone.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)


def write_file(workdir: Path, args: dict) -> str:
    target = resolve_inside(workdir, args["path"])
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {shown(workdir, target)}"


def replace_file(target: Path, text: str) -> None:
    with open(target, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
