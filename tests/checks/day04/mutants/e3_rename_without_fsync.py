"""E3: a temp file beside the target, closed, then os.replace, but never fsynced
("closing the file flushes it, and the rename is atomic, so it is safe").

Closing only hands the bytes to the kernel: after a power cut the rename may be on disk
and the data not, and the target's name points at an empty file.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)


def replace_file(target: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if target.exists():
            shutil.copymode(target, temp)
        else:
            os.chmod(temp, 0o666 & ~current_umask())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
