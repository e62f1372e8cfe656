"""E3: mkstemp() in the system's temp directory, then os.replace into the workdir: on
another file system the rename fails (EXDEV), and a move there would be a copy."""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)
MAYBE = ("fix-and-verify", "write-outside-refused", "edit-ambiguous-refused", "edit-missing-refused")  # where the system's temp dir is another file system
                                                      # (a tmpfs /tmp, as in the hermetic view): every write fails


def replace_file(target: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            shutil.copymode(target, temp)
        else:
            os.chmod(temp, 0o666 & ~current_umask())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
