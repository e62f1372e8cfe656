"""update() checks every rule on the items the model sent, and an item it left out simply
leaves the list: an open step vanishes without being done (a hold-out class)."""
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
                if RANK[status] < RANK[old.status]:
                    raise PlanRefused(f"item {old.id} ({old.content!r}) cannot go back to {status}")
                item_id = old.id
            else:
                item_id, next_id = str(next_id), next_id + 1
            new.append(TodoItem(item_id, content, status))
        if sum(1 for item in new if item.status == "in_progress") > 1:
            raise PlanRefused("only one item may be in progress")
        self.items, self.next_id = new, next_id
