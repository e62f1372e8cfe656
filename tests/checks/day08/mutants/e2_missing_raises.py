"""inject is right for everything that exists, and lets a missing file raise
FileNotFoundError ("the user should know"): one typo and the message is never sent."""
TARGET = "mca/refs/inject.py"
FAILS = ("missing-is-a-note", "bill-printed")


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
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    data = path.read_bytes()  # a missing file raises FileNotFoundError here
    try:
        return capped(ref, "file", data.decode("utf-8"))
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file (only UTF-8 text and images are injected)")
