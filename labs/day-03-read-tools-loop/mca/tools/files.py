"""File tools that only read: read_file, list_dir, grep.

Every path goes through ``resolve_inside`` first, so no tool can reach outside the
workdir. Each tool is marked ``read_only``: it changes nothing (day 5's approval gate
lets such tools through without asking).
"""

from __future__ import annotations

import os
import re
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




def file_tools(workdir: Path) -> list[Tool]:
    """The three read-only file tools, bound to ``workdir``."""
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
    ]
