"""should_remind() only skips a finished list: an empty one (no plan yet) counts as open, and
a session that never plans is reminded."""
TARGET = "mca/plan/remind.py"
FAILS = ("reminder-after-n",)


def should_remind(history, plan, after=REMIND_AFTER):
    if plan.items and not plan.is_open():
        return False
    idle = 0
    for message in reversed(history):
        if is_reminder(message):
            return False
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after
