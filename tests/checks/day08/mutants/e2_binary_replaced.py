"""inject keeps images apart but reads every other file with errors="replace", so that a
stray byte never crashes a turn: a binary file reaches the model as replacement
characters and whatever ASCII it holds, and is billed, instead of being a note."""
TARGET = "mca/refs/inject.py"
FAILS = ("file-injected",)


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
        return capped(ref, "dir", listing(path))
    if not path.is_file():
        return not_injected(ref, "no such file or directory in the workdir")
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    return capped(ref, "file", path.read_bytes().decode("utf-8", errors="replace"))
