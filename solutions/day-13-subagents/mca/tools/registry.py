"""The tool registry: what the model is offered, and one safe way to run a call.

``ToolRegistry.run`` never raises for something the model did wrong. An unknown
tool, a missing or mistyped argument, a path outside the workdir: each becomes a
tool result that starts with ``error:``, so the model reads what went wrong and can
try again.
Day 6 goes further: a tool that fails in a way nobody planned for (a missing file,
a file that is not text) is reported the same way. Errors are information.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import Tool, ToolError, ToolResult
from .files import file_tools
from .shell import shell_tools
from .truncate import MAX_RESULT_CHARS, truncate

JSON_TYPES = {"string": str, "integer": int, "boolean": bool, "object": dict}


class ToolRegistry:
    """The tools of one agent, by name."""

    def __init__(self, tools: list[Tool] | None = None, max_chars: int = MAX_RESULT_CHARS) -> None:
        self._tools = {tool.name: tool for tool in tools or []}
        self.max_chars = max_chars

    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[dict[str, Any]]:
        """What the gateway offers the model."""
        return [tool.schema() for tool in self._tools.values()]

    def is_read_only(self, name: str) -> bool:
        tool = self._tools.get(name)
        return bool(tool and tool.read_only)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def run(self, name: str, args: dict[str, Any], call_id: str = "") -> ToolResult:
        """Run one call; what the model did wrong comes back as an ``error:`` result."""
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(False, f"error: no tool named {name!r}; available: {', '.join(self._tools)}")
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(False, f"error: bad arguments for {name}: {problem}")
        try:
            text = tool.run(args, call_id) if tool.takes_call else tool.run(args)
        except ToolError as exc:  # the tool's own refusal: a path outside the workdir, an ambiguous edit...
            return ToolResult(False, f"error: {exc}")
        except Exception as exc:  # noqa: BLE001 - anything else a tool can run into
            return self.failed(name, exc)
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)

    def failed(self, name: str, exc: Exception) -> ToolResult:
        """A tool that failed unexpectedly, as a result the model can read and act on."""
        return ToolResult(False, f"error: {name} failed: {type(exc).__name__}: {exc}")


def check_args(parameters: dict[str, Any], args: Any) -> str | None:
    """Say what is wrong with ``args`` against a simple JSON schema, or None if nothing is."""
    if not isinstance(args, dict):
        return "arguments must be a JSON object"
    properties = parameters.get("properties", {})
    for name in parameters.get("required", []):
        if name not in args:
            return f"missing {name!r}"
    for name, value in args.items():
        if name not in properties:
            return f"unknown argument {name!r}; expected {', '.join(properties)}"
        expected = JSON_TYPES.get(properties[name].get("type", ""))
        # bool is a subclass of int in Python; an integer parameter should not accept true.
        if expected and (not isinstance(value, expected) or (expected is int and isinstance(value, bool))):
            return f"{name!r} must be a {properties[name]['type']}"
    return None


def default_tools(workdir: Path,
                  command_timeout: float = 60.0,
                  memories=None,  # mca.memory.Memories: the remember tool writes there
                  plan=None,  # mca.plan.TodoList: the todo tool keeps it
                  subagents=None,  # mca.agent.subagent.Subagents: the task tool runs side tasks with it
                  ) -> ToolRegistry:
    """Every tool of the agent, bound to one workdir."""
    extra = []
    if memories is not None:
        from ..memory.tool import memory_tools

        extra = memory_tools(memories)
    if plan is not None:
        from ..plan.tool import todo_tools

        extra += todo_tools(plan)
    if subagents is not None:
        from ..agent.subagent import task_tools

        extra += task_tools(subagents)
    return ToolRegistry(file_tools(workdir) + shell_tools(workdir, command_timeout) + extra)
