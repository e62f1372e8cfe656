"""The write tools, each keeping the old content of the file it changes first.

The model sees the same tools as before (their names, descriptions and parameters do
not change); only what runs when it calls one does: the file the call names is saved
(``SnapshotStore.save``) around the tool's own work. ``run_command`` is not among them:
what a command changes cannot be known before it runs, so it is not snapshotted, and a
rollback says so.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..tools.base import Tool
from ..tools.paths import resolve_inside
from ..tools.registry import ToolRegistry
from .store import SnapshotStore

WRITE_TOOLS = ("write_file", "edit_file", "delete_file")  # every tool that changes the file its path names


def snapshotting(tool: Tool, workdir: Path, store: SnapshotStore) -> Tool:
    """``tool`` as the model sees it, with the old content of its file kept before it writes."""

    def run(args: dict) -> str:
        target = resolve_inside(workdir, str(args.get("path", "")))  # the file this call changes
        return store.save(target, lambda: tool.run(args))           # its old bytes kept, then the write

    return replace(tool, run=run)


def snapshot_writes(tools: ToolRegistry, workdir: Path, store: SnapshotStore) -> None:
    """Make every write tool of ``tools`` save first."""
    for name in WRITE_TOOLS:
        tool = tools.get(name)
        if tool is not None:
            tools.add(snapshotting(tool, workdir, store))


__all__ = ["WRITE_TOOLS", "snapshot_writes", "snapshotting"]
