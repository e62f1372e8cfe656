"""The plan: a todo list the model keeps while it works, on screen and in the log.

* ``todo``   - the list itself (``TodoList``): what an update may change, and how it is shown;
* ``remind`` - when the loop reminds the model of a plan it stopped looking at;
* ``tool``   - the ``todo`` tool the model calls with the whole list.

The list lives in the agent, not in the history: each accepted update is logged as a
``plan`` event, so a resumed session starts with the list as the last update left it.
"""

from __future__ import annotations

from .remind import REMIND_AFTER, is_reminder, reminder_text, should_remind
from .todo import STATUSES, TODO_TOOL, PlanRefused, TodoItem, TodoList, plan_from_log, plan_lines

__all__ = ["PlanRefused", "REMIND_AFTER", "STATUSES", "TODO_TOOL", "TodoItem", "TodoList", "is_reminder",
           "plan_from_log", "plan_lines", "reminder_text", "should_remind"]
