"""plan_from_log() brings the items back but not the number the next new item gets: the next
new item takes id 1, which an item already has."""
TARGET = "mca/plan/todo.py"
FAILS = ("plan-resumed",)


def plan_from_log(events):
    plan = TodoList()
    for event in events:
        if event.type == "plan":
            plan = TodoList([TodoItem(str(i["id"]), str(i["content"]), str(i["status"]))
                             for i in event.fields.get("items") or []])
    return plan
