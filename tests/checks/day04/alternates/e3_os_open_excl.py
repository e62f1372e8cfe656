"""E3, written differently: the temp file is made with os.open(O_CREAT | O_EXCL, 0o666),
so a new file gets the umask's bits by itself; bytes written with os.write in a loop."""
TARGET = "mca/tools/files.py"
FAILS = ()

import secrets


def replace_file(target: Path, text: str) -> None:
    temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.part")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        data = memoryview(text.encode("utf-8"))
        while data:
            data = data[os.write(fd, data):]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        if target.exists():
            os.chmod(temp, target.stat().st_mode & 0o7777)
        os.replace(temp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        temp.unlink(missing_ok=True)
        raise
