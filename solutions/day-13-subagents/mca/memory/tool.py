"""The ``remember`` tool: the model keeps a note for later sessions.

It writes (a file in the user's home or the project), so it is not read-only: day 5's
gate asks before it runs, ``--yes`` approves it, a ``deny remember`` rule refuses it,
and with nobody at a terminal an ask is a no. A text that looks like a secret is
refused with the reason, and nothing is written.
"""

from __future__ import annotations

from . import Memories, MemoryRefused
from ..tools.base import Tool, ToolError

MAX_MEMORY_CHARS = 500


def memory_tools(memories: Memories) -> list[Tool]:
    def remember(args: dict) -> str:
        text = str(args["text"]).strip()
        scope = str(args.get("scope") or "user")
        if not text:
            raise ToolError("nothing to remember: the text is empty")
        if len(text) > MAX_MEMORY_CHARS:
            raise ToolError(f"a memory is one short note (at most {MAX_MEMORY_CHARS} characters), "
                            f"not {len(text)}")
        try:
            store = memories.store(scope)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        try:
            memory, written = store.add(text)
        except MemoryRefused as exc:
            raise ToolError(f"not remembered: {exc}; nothing was written") from None
        if not written:
            return f"already remembered ({scope}): {memory.text}"
        return f"remembered ({scope}): {memory.text}"

    return [Tool(
        name="remember",
        description=("Keep a short note for later sessions (a preference, a project fact). scope: "
                     "\"user\" (every project) or \"project\" (this one). Never a password or a key."),
        parameters={"type": "object", "properties": {"text": {"type": "string"}, "scope": {"type": "string"}},
                    "required": ["text"]},
        run=remember,
    )]
