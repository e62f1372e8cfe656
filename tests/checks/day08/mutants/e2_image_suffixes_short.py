"""inject recognises the image types everyone thinks of first, .png, .jpg and .gif: a
.jpeg or .webp photo falls through to the text reader and is a note ("not a text
file"), so the model never sees it."""
TARGET = "mca/refs/inject.py"
FAILS = ("image-part",)


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
    if path.suffix.lower() in (".png", ".jpg", ".gif"):
        return image(ref, path)
    try:
        return capped(ref, "file", path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file (only UTF-8 text and images are injected)")
