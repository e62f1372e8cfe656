"""update() refuses a status that moves back with a message that says what is wrong but not
which item."""
TARGET = "mca/plan/todo.py"
FAILS = ("forward-only",)


class TodoList:
    def update(self, items):
        known = {item.id: item for item in self.items}
        new, next_id = [], self.next_id
        for raw in items:
            content, status = str(raw.get("content") or "").strip(), raw.get("status")
            if status not in STATUSES or not content:
                raise PlanRefused("an item has no text or a bad status")
            if raw.get("id"):
                old = known.get(str(raw["id"]))
                if old is None:
                    raise PlanRefused("an item names an unknown id")
                if RANK[status] < RANK[old.status]:
                    raise PlanRefused("statuses only move forward")
                item_id = old.id
            else:
                item_id, next_id = str(next_id), next_id + 1
            new.append(TodoItem(item_id, content, status))
        if sum(1 for item in new if item.status == "in_progress") > 1:
            raise PlanRefused("at most one item in progress")
        if {item.id for item in self.items} - {item.id for item in new}:  # the whole list each time
            raise PlanRefused("an item is missing: send the whole list")
        self.items, self.next_id = new, next_id
