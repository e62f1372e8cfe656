"""E3: temp file beside the target and os.replace, but the rename runs inside the `with`
block, before the file is closed: the buffered tail reaches the file only afterwards."""
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
