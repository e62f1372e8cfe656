"""update() takes an id the list does not have as a new item under that id (a hold-out class):
the model's typo becomes a step, and the id may later clash with the next number."""
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
            old = known.get(str(raw.get("id")))
            if old is not None:
                if RANK[status] < RANK[old.status]:
                    raise PlanRefused(f"item {old.id} ({old.content!r}) cannot go back to {status}")
                item_id = old.id
            elif raw.get("id"):
                item_id = str(raw["id"])
            else:
                item_id, next_id = str(next_id), next_id + 1
            new.append(TodoItem(item_id, content, status))
        gone = [item for item in self.items if item.id not in {i.id for i in new}]
        if gone:
            raise PlanRefused(f"item {gone[0].id} ({gone[0].content!r}) is missing: send the whole list")
        if sum(1 for item in new if item.status == "in_progress") > 1:
            raise PlanRefused("only one item may be in progress")
        self.items, self.next_id = new, next_id
