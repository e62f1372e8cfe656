"""update() keeps the ids the model names and numbers new items, but checks no rule: two items
in progress and a done item reopened both go through."""
TARGET = "mca/plan/todo.py"
FAILS = ("one-in-progress", "forward-only")


class TodoList:
    def update(self, items):
        new = []
        for raw in items:
            if raw.get("id"):
                item_id = str(raw["id"])
            else:
                item_id, self.next_id = str(self.next_id), self.next_id + 1
            new.append(TodoItem(item_id, str(raw["content"]).strip(), raw["status"]))
        self.items = new
