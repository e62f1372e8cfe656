"""should_remind() waits for more than `after` idle rounds: the reminder comes one round late."""
TARGET = "mca/plan/remind.py"
FAILS = ("reminder-after-n", "reminder-accounted")


def should_remind(history, plan, after=REMIND_AFTER):
    if not plan.is_open():
        return False
    idle = 0
    for message in reversed(history):
        if is_reminder(message):
            return False
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle > after
