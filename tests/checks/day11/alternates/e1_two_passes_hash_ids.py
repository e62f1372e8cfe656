"""update() checks the whole list in a first pass (statuses, then backward moves, then the
in-progress count) and builds it in a second, naming items by "#id"; ids are "t1", "t2", ..."""
TARGET = "mca/plan/todo.py"
FAILS = ()


class TodoList:
    def update(self, items):
        if not isinstance(items, list):
            raise PlanRefused("items must be a list")
        old = {item.id: item for item in self.items}
        for raw in items:
            if not isinstance(raw, dict) or not str(raw.get("content") or "").strip() or raw.get("status") not in STATUSES:
                raise PlanRefused(f"each item needs content and a status ({', '.join(STATUSES)})")
            if raw.get("id") is not None and str(raw["id"]) not in old:
                raise PlanRefused(f"there is no item #{raw['id']}")
        for raw in items:
            if raw.get("id") is not None:
                before = old[str(raw["id"])]
                if STATUSES.index(raw["status"]) < STATUSES.index(before.status):
                    raise PlanRefused(f"#{before.id} was {before.status}; it may not become {raw['status']}")
        busy = [raw for raw in items if raw["status"] == "in_progress"]
        if len(busy) > 1:
            raise PlanRefused("only one item can be in_progress, got " + ", ".join(repr(r["content"]) for r in busy))
        named = [str(raw["id"]) for raw in items if raw.get("id") is not None]
        if len(set(named)) != len(named) or set(old) - set(named):
            raise PlanRefused("send every item of the plan once")
        counter = self.next_id
        result = []
        for raw in items:
            if raw.get("id") is not None:
                item_id = str(raw["id"])
            else:
                item_id, counter = f"t{counter}", counter + 1
            result.append(TodoItem(item_id, str(raw["content"]).strip(), raw["status"]))
        self.items, self.next_id = result, counter
