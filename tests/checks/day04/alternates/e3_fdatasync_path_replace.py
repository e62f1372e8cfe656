"""E3, written differently: the temp file is opened in binary mode with open(..., "xb")
beside the target, synced with os.fdatasync (data only: the metadata a rename needs is
the directory's), and moved with Path.replace; a new file's bits come from the umask."""
TARGET = "mca/tools/files.py"
FAILS = ()

import uuid


def replace_file(target: Path, text: str) -> None:
    temp = target.parent / f".{target.name}-{uuid.uuid4().hex[:8]}.new"
    try:
        with open(temp, "xb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fdatasync(handle.fileno())
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~current_umask()
        temp.chmod(mode)
        temp.replace(target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
