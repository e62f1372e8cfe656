"""should_remind() counts the rounds since the last todo call or the last reminder, so a long
stretch is reminded every N rounds, not once."""
TARGET = "mca/plan/remind.py"
FAILS = ("reminder-after-n",)
MAYBE = ("reminder-accounted",)


def should_remind(history, plan, after=REMIND_AFTER):
    if not plan.is_open():
        return False
    idle = 0
    for message in reversed(history):
        if is_reminder(message):
            break
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after
