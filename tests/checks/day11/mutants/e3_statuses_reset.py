"""plan_from_log() brings the items back as a fresh plan to work through: every status reset
to pending, the first open one in progress."""
TARGET = "mca/plan/todo.py"
FAILS = ("plan-resumed",)


def plan_from_log(events):
    plan = TodoList()
    for event in events:
        if event.type == "plan":
            plan = TodoList.from_record(event.fields)
    first = True
    for item in plan.items:
        if item.status != "done":
            item.status = "in_progress" if first else "pending"
            first = False
    return plan
