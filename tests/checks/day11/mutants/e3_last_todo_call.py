"""plan_from_log() rebuilds the list from the arguments of the model's last todo call in the
log's messages, so a refused update comes back as the plan."""
TARGET = "mca/plan/todo.py"
FAILS = ("plan-resumed",)


def plan_from_log(events):
    last = None
    for event in events:
        message = event.fields.get("message") if event.type == "message" else None
        for call in (message or {}).get("tool_calls") or []:
            if call.get("name") == "todo":
                last = call.get("args", {}).get("items")
    plan = TodoList()
    for number, item in enumerate(last or [], 1):
        plan.items.append(TodoItem(str(item.get("id") or number), str(item["content"]), str(item["status"])))
    plan.next_id = len(plan.items) + 1
    return plan
