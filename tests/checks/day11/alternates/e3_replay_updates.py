"""plan_from_log() replays the plan events in order into one list, item by item (TodoItem
objects of its own), and takes the highest number seen for the next id."""
TARGET = "mca/plan/todo.py"
FAILS = ()


def plan_from_log(events):
    plan = TodoList()
    for event in events:
        if event.type != "plan":
            continue
        items = event.fields.get("items") or []
        plan.items = [TodoItem(str(item["id"]), str(item["content"]), str(item["status"])) for item in items]
        numbers = [int(item.id) for item in plan.items if item.id.isdigit()]
        plan.next_id = max(int(event.fields.get("next_id") or 1), max(numbers, default=0) + 1)
    return plan
