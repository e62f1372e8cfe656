"""The nudge: a plan the model stopped looking at gets one short reminder.

A round is one reply of the model. A round is idle when its reply does not call the
``todo`` tool; rounds are counted over the whole session (a turn ending is not a look
at the plan). After ``REMIND_AFTER`` idle rounds in a row, while the list still has an
item that is not done, the loop adds one reminder to the history before the next
request, and no other until the model touches the list again: once per idle stretch,
never right after an update, never for an empty or finished list.

The rule reads the history only (and whether the list is open), so a resumed session,
whose history came back from the log, decides exactly as the first process would have.
The reminder is a message of its own (role ``system``, opening with ``REMINDER_TAG``),
and an injection like any other: its bill is printed and logged before it.
"""

from __future__ import annotations

from .todo import TODO_TOOL, TodoList

REMIND_AFTER = 3  # idle rounds before the reminder
REMINDER_TAG = "[plan reminder]"


def is_reminder(message: dict) -> bool:
    return message.get("role") == "system" and str(message.get("content") or "").startswith(REMINDER_TAG)


def touches_plan(message: dict) -> bool:
    """An assistant message that calls the todo tool."""
    return any(call.get("name") == TODO_TOOL for call in message.get("tool_calls") or [])


def should_remind(history: list[dict], plan: TodoList, after: int = REMIND_AFTER) -> bool:
    """True when the next request must carry a reminder: ``after`` idle rounds since the
    model last called todo, the list still open, and no reminder yet in this stretch."""
    if not plan.is_open():
        return False  # nothing to do, or nothing planned: nothing to remind of
    idle = 0
    for message in reversed(history):  # back to the last time the model touched the list
        if is_reminder(message):
            return False  # this stretch has had its reminder
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after


def reminder_text(plan: TodoList, after: int = REMIND_AFTER) -> str:
    """The reminder: what is still open, and what to do about it."""
    open_items = [item for item in plan.items if item.status != "done"]
    listed = "; ".join(f"{item.id}. {item.content} ({item.status})" for item in open_items)
    return (f"{REMINDER_TAG} You have not updated your plan for {after} rounds, and {len(open_items)} of "
            f"{len(plan.items)} items are still open: {listed}. If the work has moved on, send the whole "
            f"list with the todo tool; otherwise carry on.")
