"""plan_from_log() takes the first plan event it meets: the plan as the session started it,
not as the last update left it."""
TARGET = "mca/plan/todo.py"
FAILS = ("plan-resumed",)


def plan_from_log(events):
    for event in events:
        if event.type == "plan":
            return TodoList.from_record(event.fields)
    return TodoList()
