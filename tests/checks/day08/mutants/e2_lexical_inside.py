"""inject keeps paths inside with a lexical check (`os.path.normpath`, then a prefix
test): `..` and absolute paths are refused, but a symlink that points out is followed."""
TARGET = "mca/refs/inject.py"
FAILS = ("path-escape-refused",)

import os


def inject(ref, workdir):
    if ref.startswith(("http://", "https://")):
        try:
            return capped(ref, "url", fetch_url(ref, FETCH_TIMEOUT))
        except FetchError as exc:
            return not_injected(ref, str(exc))
    root = os.path.normpath(str(workdir))
    path = os.path.normpath(os.path.join(root, ref))
    if path != root and not path.startswith(root + os.sep):
        return not_injected(ref, "outside the workdir")
    path = Path(path)
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
