"""update() takes the new list first and checks it afterwards: a refused update still leaves
its list in place."""
TARGET = "mca/plan/todo.py"
FAILS = ("one-in-progress", "forward-only")


class TodoList:
    def update(self, items):
        old_items = {item.id: item for item in self.items}
        self.items = []
        for raw in items:
            if raw.get("id"):
                item_id = str(raw["id"])
            else:
                item_id, self.next_id = str(self.next_id), self.next_id + 1
            self.items.append(TodoItem(item_id, str(raw["content"]).strip(), raw["status"]))
        for item in self.items:
            old = old_items.get(item.id)
            if old is not None and RANK[item.status] < RANK[old.status]:
                raise PlanRefused(f"item {item.id} ({old.content!r}) cannot go back to {item.status}")
        if sum(1 for item in self.items if item.status == "in_progress") > 1:
            raise PlanRefused("only one item may be in progress")
