"""E3: writes a temp file beside the target, then copies it over the target with
shutil.copyfile (which empties the target and refills it) instead of renaming it."""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)


def replace_file(target: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            shutil.copymode(target, temp)
        else:
            os.chmod(temp, 0o666 & ~current_umask())
        shutil.copyfile(temp, target)
    finally:
        Path(temp).unlink(missing_ok=True)
