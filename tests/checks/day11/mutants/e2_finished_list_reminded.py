"""should_remind() only asks whether the model ever made a plan, not whether anything in it is
left: a finished list is reminded too."""
TARGET = "mca/plan/remind.py"
FAILS = ("reminder-after-n",)


def should_remind(history, plan, after=REMIND_AFTER):
    if not plan.items:
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
