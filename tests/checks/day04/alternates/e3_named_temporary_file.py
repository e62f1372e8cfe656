"""E3, written differently: NamedTemporaryFile(delete=False) beside the target, the
mode set from os.stat (or from the umask for a new file), os.rename; the path check
done by hand with Path.resolve and relative_to."""
TARGET = "mca/tools/files.py"
FAILS = ()

import stat
import tempfile


def write_file(workdir: Path, args: dict) -> str:
    root = workdir.resolve()
    target = (root / args["path"]).resolve()
    try:
        target.relative_to(root)
    except ValueError:
        raise ToolError(f"refusing to write {args['path']}: it is outside the workdir") from None
    os.makedirs(target.parent, exist_ok=True)
    replace_file(target, args["content"])
    return f"wrote {shown(workdir, target)}"


def replace_file(target: Path, text: str) -> None:
    if target.exists():
        mode = stat.S_IMODE(os.stat(target).st_mode)
    else:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", dir=target.parent,
                                         prefix=".mca-", delete=False)
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(handle.name, mode)
        os.rename(handle.name, target)
    except BaseException:
        try:
            os.unlink(handle.name)
        except FileNotFoundError:
            pass
        raise
