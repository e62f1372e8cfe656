"""E3: temp file and os.replace, but nothing removes the temp file when a step fails.

Atomic, yet a write that fails (here: the target is a directory) leaves a
`.name.XXXX.tmp` behind in the user's project.
"""
TARGET = "mca/tools/files.py"
FAILS = ("write-is-atomic",)

import tempfile


def replace_file(target: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    if target.exists():
        shutil.copymode(target, temp)
    else:
        os.chmod(temp, 0o666 & ~current_umask())
    os.replace(temp, target)
