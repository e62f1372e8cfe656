"""inject caps a listing and a page (they can be huge) but sends a file whole ("the user
asked for that file, all of it")."""
TARGET = "mca/refs/inject.py"
FAILS = ("cap-declared",)


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
    try:
        return Injection(ref, "file", path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file")
