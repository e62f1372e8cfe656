"""The todo list: items the model works through, one at a time, never backwards.

The model sends the whole list each time (``TodoList.update``): every item with its
``content`` and its ``status``, ``pending``, ``in_progress`` or ``done``. An item the
list already has is named by its ``id`` (the tool's answer shows them); an item without
an ``id`` is new and gets the next number, which is never given out again. An update
is taken whole or not at all, and refused (``PlanRefused``, naming the item) when:

* more than one item would be ``in_progress`` (one thing at a time);
* an item's status would move back (``done`` to anything else, ``in_progress`` to
  ``pending``): a finished step does not quietly become unfinished;
* it names an ``id`` the list does not have, names one twice, or leaves an item out
  (the list is sent whole: a step that is no longer needed is marked ``done``);
* an item has no text, or a status that is not one of the three.

Refused, the list stays exactly as it was, and the model reads why in the tool's answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

TODO_TOOL = "todo"
STATUSES = ("pending", "in_progress", "done")
RANK = {status: rank for rank, status in enumerate(STATUSES)}  # a status may only go up
MARKS = {"pending": "[ ]", "in_progress": "[>]", "done": "[x]"}


class PlanRefused(ValueError):
    """An update the list does not take; the message names the item and the rule."""


@dataclass
class TodoItem:
    id: str        # "1", "2", ...: stable for the life of the list
    content: str   # what the step is, in the model's words
    status: str    # one of STATUSES


@dataclass
class TodoList:
    items: list[TodoItem] = field(default_factory=list)
    next_id: int = 1  # the number the next new item gets (never reused)

    def update(self, items: list[dict]) -> None:
        """Replace the list with ``items`` (the whole list, as the model sent it), or
        raise PlanRefused naming the item, leaving the list as it was."""
        # The model knows its plan best: take the list as it sent it.
        self.items = [TodoItem(str(item.get("id") or number), str(item["content"]), str(item["status"]))
                      for number, item in enumerate(items, 1)]
        self.next_id = len(self.items) + 1

    def is_open(self) -> bool:
        """Something is left to do: the list has an item that is not done."""
        return any(item.status != "done" for item in self.items)

    def load(self, other: "TodoList") -> None:
        """Become ``other`` (the tool holds this object, so it is changed, not replaced)."""
        self.items, self.next_id = [TodoItem(i.id, i.content, i.status) for i in other.items], other.next_id

    def record(self) -> dict:
        """What a ``plan`` event holds."""
        return {"items": [{"id": i.id, "content": i.content, "status": i.status} for i in self.items],
                "next_id": self.next_id}

    @classmethod
    def from_record(cls, fields: dict) -> "TodoList":
        """The list a ``plan`` event recorded (what ``record`` wrote)."""
        items = [TodoItem(str(i["id"]), str(i["content"]), str(i["status"])) for i in fields.get("items") or []]
        numbers = [int(item.id) for item in items if item.id.isdigit()]
        next_id = int(fields.get("next_id") or 0) or max(numbers, default=0) + 1
        return cls(items, max(next_id, max(numbers, default=0) + 1))


def plan_lines(items: Iterable[dict]) -> list[str]:
    """The plan as shown on screen and in the tool's answer: a count, then one line per item."""
    items = list(items)
    done = sum(1 for item in items if item.get("status") == "done")
    lines = [f"plan ({done} of {len(items)} done):" if items else "plan: empty"]
    lines += [f"  {MARKS.get(item.get('status'), '[?]')} {item.get('id')}. {item.get('content')}" for item in items]
    return lines


def plan_from_log(events: Iterable) -> TodoList:
    """The plan as the session's log left it: the list of its last ``plan`` event (a
    session that never made one: an empty list)."""
    # TODO(E3): the list of the last ``plan`` event (TodoList.from_record), so a resumed
    # session goes on with the plan it had. For now a resumed session starts with none.
    return TodoList()
