"""The shapes every tool shares: a Tool, its result, and the error it may raise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


class ToolError(Exception):
    """A tool could not do what was asked; the message is shown to the model."""


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gave back to the model."""

    ok: bool
    content: str
    truncated: bool = False
    blocked_by: str | None = None  # "approval" or "loop_guard" when the call never ran


@dataclass(frozen=True)
class Tool:
    """One tool: its name and JSON-schema parameters (for the model) and the code that runs it."""

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[dict[str, Any]], str]
    read_only: bool = False

    def schema(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}
