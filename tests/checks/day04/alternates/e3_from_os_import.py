"""E3, written differently: the os functions are imported by name (`from os import fsync,
replace`), the text is encoded and written in binary to the file object os.fdopen gives,
and the mode comes from os.stat or the umask."""
TARGET = "mca/tools/files.py"
FAILS = ()

from os import fsync, replace


def replace_file(target: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            fsync(handle.fileno())
        mode = os.stat(target).st_mode & 0o7777 if target.exists() else 0o666 & ~current_umask()
        os.chmod(temp, mode)
        replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
