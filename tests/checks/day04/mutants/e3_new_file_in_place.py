"""E3: a temp file and os.replace over an existing file, but a new file is written
straight to its name ("there is no old content to lose, so no temp file is needed").

A crash during that first write leaves a truncated file under the target's name, which
looks like the real one to whoever opens it next.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)


def replace_file(target: Path, text: str) -> None:
    if not target.exists():
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        return
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        shutil.copymode(target, temp)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
