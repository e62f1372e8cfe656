# [day 3+]
"""The shapes every tool shares: a Tool, its result, and the error it may raise."""

from __future__ import annotations

import json
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
    """One tool: its name and JSON-schema parameters (for the model) and the code that runs it.

    ``read_only`` tools change nothing; the approval gate (day 5) lets them through
    without asking, so marking a tool is the whole rule.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[dict[str, Any]], str]
    read_only: bool = False
    # [day 13+]
    takes_call: bool = False  # run(args, call_id): told which call it answers (the task tool, day 13)
    # [/day]

    def schema(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


def describe_call(name: str, args: dict) -> str:
    """One line a person can judge: the command itself for run_command, else the arguments."""
    if name == "run_command" and "command" in args:
        return f"run_command: {args['command']}"
    text = json.dumps(args, ensure_ascii=False)
    return f"{name} {text[:200]}{'...' if len(text) > 200 else ''}"
# [/day]
