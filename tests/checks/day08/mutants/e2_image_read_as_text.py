"""inject reads every file as text and, so that nothing crashes, decodes with
errors="replace": an image becomes a page of replacement characters, never an image part."""
TARGET = "mca/refs/inject.py"
FAILS = ("file-injected", "image-part")


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
    return capped(ref, "file", path.read_bytes().decode("utf-8", errors="replace"))
