"""inject cuts every text to MAX_INJECT_CHARS with a slice: small, fast, and the model
never learns that the file was longer."""
TARGET = "mca/refs/inject.py"
FAILS = ("cap-declared",)


def inject(ref, workdir):
    if ref.startswith(("http://", "https://")):
        try:
            return Injection(ref, "url", fetch_url(ref, FETCH_TIMEOUT)[:MAX_INJECT_CHARS])
        except FetchError as exc:
            return not_injected(ref, str(exc))
    try:
        path = resolve_inside(workdir, ref)
    except ToolError as exc:
        return not_injected(ref, str(exc))
    if path.is_dir():
        return Injection(ref, "dir", listing(path)[:MAX_INJECT_CHARS])
    if not path.is_file():
        return not_injected(ref, "no such file or directory in the workdir")
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    try:
        return Injection(ref, "file", path.read_bytes().decode("utf-8")[:MAX_INJECT_CHARS])
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file")
