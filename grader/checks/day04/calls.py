"""Day 04: running the harnesses and reading what they report.

Every call of a tool goes through the lab's ToolRegistry in a harness child
(harnesses/tool_calls.py), so a check sees exactly what the model would read: a
result, or an exception that would have crashed the turn. Files are judged here, in
the grader, before and after.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from grader.checkkit import CheckFailed
from grader.checkkit.failures import short
from grader.checkkit.messages import Messages


def tool_calls(ctx, label: str, workdir: Path, calls: list, *, timeout: float = 10, umask: int | None = None,
               watch: Path | None = None, deadline: float | None = None) -> list[dict]:
    """Make `calls` ([name, args] pairs) through the lab's registry; one result per call.
    A call still running after `deadline` seconds is {"hung": deadline} and the last one."""
    deadline = deadline or timeout + 5
    job = {"workdir": str(workdir), "timeout": timeout, "umask": umask, "calls": calls,
           "watch": str(watch) if watch else None, "deadline": deadline}
    return ctx.harness_answers("tool_calls", job, count=len(calls), calls="ToolRegistry.run", label=label,
                               timeout=deadline * len(calls) + 10)


def stub_in(ctx, entry: dict, tool: str) -> None:
    """A stub, a call that never came back, or an exception out of the registry fails the
    check, naming the tool."""
    if "hung" in entry:
        raise CheckFailed(ctx.say("tool.hung", tool=tool, seconds=entry["hung"]))
    if "stub" in entry:
        raise ctx.harness_problem(entry, tool)
    if "raised" in entry:
        raise CheckFailed(ctx.say("tool.raised", tool=tool, error=entry["raised"], where=entry.get("where")))


def refused(entry: dict) -> bool:
    """The tool said no: its result is not ok (a ToolError, through the registry, in any words), or
    what the model reads starts with `error`."""
    return "content" in entry and (entry.get("ok") is False or entry["content"].lstrip().lower().startswith("error"))


def said(entry: dict) -> str:
    """What a call gave back, for a message."""
    if "content" in entry:
        return short(" | ".join(entry["content"].splitlines())
                     or Messages.for_day(Path(__file__).parent)("brief.empty_result"), 200)
    return short(entry.get("raised") or entry.get("stub") or "?", 200)


# --------------------------------------------------------------------------- files

@dataclass(frozen=True)
class Stamp:
    """A file as the check last saw it: not written at all means the same inode, mtime and bytes."""

    inode: int
    mtime_ns: int
    size: int
    sha: str

    @classmethod
    def of(cls, path: Path) -> "Stamp | None":
        try:
            st = os.lstat(path)
            data = path.read_bytes() if not os.path.islink(path) else os.readlink(path).encode()
        except OSError:
            return None
        return cls(st.st_ino, st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


def tree(root: Path) -> dict[str, Stamp | None]:
    """Every entry under `root` (links not followed), by relative path."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            found[path.relative_to(root).as_posix()] = Stamp.of(path) if not path.is_dir() or path.is_symlink() \
                else None
    return found


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def read_text(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
