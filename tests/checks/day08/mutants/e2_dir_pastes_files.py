"""inject turns a directory into the contents of its files, one after the other ("the
model will want to read them anyway")."""
TARGET = "mca/refs/inject.py"
FAILS = ("dir-listed",)


def inject(ref, workdir):
    if ref.startswith(("http://", "https://")):
        try:
            return capped(ref, "url", fetch_url(ref, FETCH_TIMEOUT))
        except FetchError as exc:
            return not_injected(ref, str(exc))
    try:
        path = resolve_inside(workdir, ref)
    except ToolError as exc:
        return not_injected(ref, str(exc))
    if path.is_dir():
        parts = []
        for entry in sorted(path.iterdir()):
            if entry.is_file():
                parts.append(f"--- {entry.name} ({entry.stat().st_size} bytes)\n"
                             + entry.read_bytes().decode("utf-8", errors="replace"))
            else:
                parts.append(f"{entry.name}/")
        return capped(ref, "dir", "\n".join(parts))
    if not path.is_file():
        return not_injected(ref, "no such file or directory in the workdir")
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    try:
        return capped(ref, "file", path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file")
