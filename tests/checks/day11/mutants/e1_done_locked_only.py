"""update() treats done as final but lets an item in progress go back to pending."""
TARGET = "mca/plan/todo.py"
FAILS = ("forward-only",)


class TodoList:
    def update(self, items):
        known = {item.id: item for item in self.items}
        new, next_id = [], self.next_id
        for raw in items:
            content, status = str(raw.get("content") or "").strip(), raw.get("status")
            if status not in STATUSES or not content:
                raise PlanRefused(f"bad item {content!r}")
            if raw.get("id"):
                old = known.get(str(raw["id"]))
                if old is None:
                    raise PlanRefused(f"no item {raw['id']}")
                if old.status == "done" and status != "done":
                    raise PlanRefused(f"item {old.id} ({old.content!r}) is done and cannot be reopened")
                item_id = old.id
            else:
                item_id, next_id = str(next_id), next_id + 1
            new.append(TodoItem(item_id, content, status))
        if sum(1 for item in new if item.status == "in_progress") > 1:
            raise PlanRefused("only one item may be in progress")
        if {item.id for item in self.items} - {item.id for item in new}:  # the whole list each time
            gone = [item for item in self.items if item.id not in {i.id for i in new}][0]
            raise PlanRefused(f"item {gone.id} ({gone.content!r}) is missing: send the whole list")
        self.items, self.next_id = new, next_id
