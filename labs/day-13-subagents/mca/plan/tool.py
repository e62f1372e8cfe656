"""The ``todo`` tool: the model sends its whole plan, the agent checks it and answers.

It changes nothing outside the agent (no file, no command), so it is read-only for
day 5's gate: the model may keep its plan without asking anyone. A refused update is
an ``error:`` result naming the item and the rule, and the list stays as it was; an
accepted one answers with the list as it now stands, ids included, so the model can
name its items next time.
"""

from __future__ import annotations

from .todo import STATUSES, TODO_TOOL, PlanRefused, TodoList, plan_lines
from ..tools.base import Tool, ToolError

MAX_ITEMS = 30          # a plan, not a backlog
MAX_CONTENT_CHARS = 400  # one step, in a line or two


def todo_tools(plan: TodoList) -> list[Tool]:
    def todo(args: dict) -> str:
        items = args["items"]
        if not isinstance(items, list):
            raise ToolError("items must be a list of {content, status} objects")
        if len(items) > MAX_ITEMS:
            raise ToolError(f"a plan holds at most {MAX_ITEMS} items, not {len(items)}; the plan is unchanged")
        for item in items:
            if isinstance(item, dict) and len(str(item.get("content") or "")) > MAX_CONTENT_CHARS:
                raise ToolError(f"an item is one step (at most {MAX_CONTENT_CHARS} characters); "
                                "the plan is unchanged")
        try:
            plan.update(items)
        except ValueError as exc:  # PlanRefused, or a ValueError of a student's own
            raise ToolError(f"plan not updated: {exc}; the plan is unchanged") from None
        return "\n".join(plan_lines(plan.record()["items"]))

    return [Tool(
        name=TODO_TOOL,
        description=("Keep your plan for the task: send the WHOLE list each time, every item with content "
                     "and status (pending, in_progress or done), at most one in_progress, statuses only move "
                     "forward. Name an existing item by the id this tool showed; leave the id out for a new one."),
        parameters={"type": "object", "properties": {"items": {"type": "array", "items": {
            "type": "object", "properties": {"id": {"type": "string"}, "content": {"type": "string"},
                                             "status": {"type": "string", "enum": list(STATUSES)}},
            "required": ["content", "status"]}}}, "required": ["items"]},
        run=todo,
        read_only=True,
    )]


__all__ = ["PlanRefused", "todo_tools"]
