"""File tools: three that only read, two that write.

Every path goes through ``resolve_inside`` first, so no tool can reach outside the
workdir. The read-only tools change nothing; the two write tools change the
user's files, so each is made safe to fail: an edit must match exactly once, and a
write never leaves half a file (a temp file in the same directory, then a rename).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from .base import Tool, ToolError
from .paths import resolve_inside, shown

MAX_GREP_MATCHES = 100
SKIPPED_DIRS = {".git", "__pycache__", ".sessions", ".venv", "node_modules"}


def read_file(workdir: Path, args: dict) -> str:
    """The text of one file."""
    return resolve_inside(workdir, args["path"]).read_text(encoding="utf-8")


def list_dir(workdir: Path, args: dict) -> str:
    """Names in a directory, sub-directories marked with a trailing /."""
    target = resolve_inside(workdir, args.get("path", "."))
    if not target.is_dir():
        raise ToolError(f"{args.get('path', '.')} is not a directory")
    names = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir())
    return "\n".join(names) if names else "(empty directory)"


def grep(workdir: Path, args: dict) -> str:
    """Lines matching a regular expression, as ``path:line: text``."""
    try:
        pattern = re.compile(args["pattern"])
    except re.error as exc:
        raise ToolError(f"bad regular expression: {exc}") from None
    start = resolve_inside(workdir, args.get("path", "."))
    matches: list[str] = []
    for path in walk_files(workdir, start):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary or unreadable files are not worth the model's tokens
        for number, line in enumerate(lines, start=1):
            if pattern.search(line):
                matches.append(f"{shown(workdir, path)}:{number}: {line}")
                if len(matches) >= MAX_GREP_MATCHES:
                    return "\n".join(matches) + f"\n(stopped after {MAX_GREP_MATCHES} matches)"
    return "\n".join(matches) if matches else "no matches"


def walk_files(workdir: Path, start: Path):
    """Files under ``start`` in a stable order, skipping caches and hidden tool dirs.

    A symlink inside the workdir may point out of it: each file found goes through
    ``resolve_inside`` too, and one that lands outside is left out (os.walk does not
    enter linked directories at all).
    """
    if start.is_file():
        yield start
        return
    for root, dirs, files in os.walk(start):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            try:
                resolve_inside(workdir, os.path.relpath(Path(root) / name, workdir))
            except ToolError:
                continue  # a link to something outside the workdir: not ours to read
            yield Path(root) / name


def write_file(workdir: Path, args: dict) -> str:
    """Create or replace a whole file (inside the workdir, parent directories made)."""
    target = resolve_inside(workdir, args["path"])
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, args["content"])
    return f"wrote {len(args['content'])} characters to {shown(workdir, target)}"


def replace_file(target: Path, text: str) -> None:
    """Put ``text`` in ``target`` all at once: readers see the old content or the new, never half.

    The text goes to a temp file in the same directory (so the rename stays on one file
    system), is flushed to disk, keeps the old file's permissions (a new file gets those
    ``open`` would give it, not mkstemp's private 0600), and is renamed over the target:
    a rename is atomic, a write is not.
    """
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
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)  # no stray temp file, whatever happened
        raise


def current_umask() -> int:
    """The process's umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def edit_file(workdir: Path, args: dict) -> str:
    """Replace one exact piece of text with another.

    The old text must appear exactly once: zero means the model's picture of the
    file is wrong, two or more means it would be guessing which one to change. A file
    with Windows line endings keeps them.
    """
    target = resolve_inside(workdir, args["path"])
    if not target.is_file():
        raise ToolError(f"{args['path']} is not a file")
    with open(target, encoding="utf-8", newline="") as handle:  # newline="": \r\n stays \r\n
        text = handle.read()
    old, new = args["old"], args["new"]
    if "\r\n" in text:  # the model writes \n; the file has \r\n: speak the file's language
        old, new = (part.replace("\r\n", "\n").replace("\n", "\r\n") for part in (old, new))
    count = text.count(old) if old else 0
    if count == 0:
        raise ToolError(f"the old text was not found in {args['path']}; read the file and copy it exactly")
    if count > 1:
        raise ToolError(f"the old text appears {count} times in {args['path']}; include more lines so it is unique")
    replace_file(target, text.replace(old, new, 1))
    return f"edited {shown(workdir, target)}: replaced 1 occurrence"


def file_tools(workdir: Path) -> list[Tool]:
    """The five file tools, bound to ``workdir``."""
    path = {"type": "string", "description": "a path relative to the workdir"}
    return [
        Tool("read_file", "Read a text file.",
             {"type": "object", "properties": {"path": path}, "required": ["path"]},
             lambda args: read_file(workdir, args), read_only=True),
        Tool("list_dir", "List a directory (default: the workdir).",
             {"type": "object", "properties": {"path": path}},
             lambda args: list_dir(workdir, args), read_only=True),
        Tool("grep", "Search files for a regular expression.",
             {"type": "object", "properties": {"pattern": {"type": "string"}, "path": path},
              "required": ["pattern"]},
             lambda args: grep(workdir, args), read_only=True),
        Tool("write_file", "Create or overwrite a file with the given content.",
             {"type": "object", "properties": {"path": path, "content": {"type": "string"}},
              "required": ["path", "content"]},
             lambda args: write_file(workdir, args)),
        Tool("edit_file", "Replace text that appears exactly once in a file.",
             {"type": "object",
              "properties": {"path": path, "old": {"type": "string"}, "new": {"type": "string"}},
              "required": ["path", "old", "new"]},
             lambda args: edit_file(workdir, args)),
    ]
