"""inject handles every kind and cap, but joins the path itself ("the user typed it, it
is not the model's input"): `@../x`, an absolute path and symlinks out are read."""
TARGET = "mca/refs/inject.py"
FAILS = ("path-escape-refused",)


def inject(ref, workdir):
    if ref.startswith(("http://", "https://")):
        try:
            return capped(ref, "url", fetch_url(ref, FETCH_TIMEOUT))
        except FetchError as exc:
            return not_injected(ref, str(exc))
    path = Path(workdir) / ref
    if path.is_dir():
        return capped(ref, "dir", listing(path))
    if not path.is_file():
        return not_injected(ref, "no such file or directory in the workdir")
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    try:
        return capped(ref, "file", path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file")
