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
        if not isinstance(items, list):
            raise PlanRefused("items must be a list of {content, status} objects")
        known = {item.id: item for item in self.items}
        new, seen, next_id = [], set(), self.next_id
        for number, raw in enumerate(items, 1):
            if not isinstance(raw, dict):
                raise PlanRefused(f"item {number} is not an object with content and status")
            content = str(raw.get("content") or "").strip()
            status = raw.get("status")
            if not content:
                raise PlanRefused(f"item {number} has no content")
            if status not in STATUSES:
                raise PlanRefused(f"item {number} ({content!r}): status must be one of "
                                  f"{', '.join(STATUSES)}, not {status!r}")
            given = raw.get("id")
            if given is None or given == "":
                item_id, next_id = str(next_id), next_id + 1
            else:
                item_id = str(given)
                old = known.get(item_id)
                if old is None:
                    raise PlanRefused(f"item {number} ({content!r}) names id {item_id}, which the plan does "
                                      f"not have; leave the id out for a new item")
                if item_id in seen:
                    raise PlanRefused(f"id {item_id} ({content!r}) is in the list twice")
                if RANK[status] < RANK[old.status]:
                    raise PlanRefused(f"item {item_id} ({old.content!r}) is {old.status} and cannot go back "
                                      f"to {status}; statuses only move forward")
            seen.add(item_id)
            new.append(TodoItem(item_id, content, status))
        missing = [item for item in self.items if item.id not in seen]
        if missing:
            raise PlanRefused(f"item {missing[0].id} ({missing[0].content!r}) is missing: send the whole "
                              f"list each time (a step no longer needed is marked done)")
        working = [item for item in new if item.status == "in_progress"]
        if len(working) > 1:
            named = ", ".join(f"{item.id} ({item.content!r})" for item in working)
            raise PlanRefused(f"{len(working)} items are in_progress: {named}; at most one at a time")
        self.items, self.next_id = new, next_id

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
    plan = TodoList()
    for event in events:
        if event.type == "plan":
            plan = TodoList.from_record(event.fields)
    return plan
