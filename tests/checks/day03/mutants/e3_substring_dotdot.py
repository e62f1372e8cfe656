"""E3: refuses any path whose text holds ".." or starts with "/": a file named
`..notes.txt` inside is refused, an absolute path inside too, and links still lead out."""
TARGET = "mca/tools/paths.py"
FAILS = ("path-escape-refused",)


def resolve_inside(workdir, path):
    if ".." in path or path.startswith("/"):
        raise OutsideWorkdir(f"{path!r} is outside the workdir")
    return workdir / path
