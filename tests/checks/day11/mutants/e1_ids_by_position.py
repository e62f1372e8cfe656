"""update() checks every rule against the old list, then numbers the items by their place in
the new list: an item sent in another place, or after a new one, changes its id."""
TARGET = "mca/plan/todo.py"
FAILS = ("forward-only",)


class TodoList:
    def update(self, items):
        known = {item.id: item for item in self.items}
        for raw in items:
            content, status = str(raw.get("content") or "").strip(), raw.get("status")
            if status not in STATUSES or not content:
                raise PlanRefused(f"bad item {content!r}")
            old = known.get(str(raw.get("id")))
            if old is not None and RANK[status] < RANK[old.status]:
                raise PlanRefused(f"item {old.id} ({old.content!r}) cannot go back to {status}")
        if sum(1 for raw in items if raw.get("status") == "in_progress") > 1:
            raise PlanRefused("only one item may be in progress")
        self.items = [TodoItem(str(n), str(raw["content"]).strip(), raw["status"]) for n, raw in enumerate(items, 1)]
        self.next_id = len(self.items) + 1
