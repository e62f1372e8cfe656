"""E3: mkstemp, fsync and os.replace, all right, but the temp file's mode is never set.

mkstemp makes a private 0600 file and the rename gives the target those bits: a
script loses its execute bit, a shared file becomes private.
"""
TARGET = "mca/tools/files.py"
FAILS = ("mode-kept",)

import tempfile


def replace_file(target: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
