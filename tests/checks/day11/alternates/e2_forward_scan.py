"""should_remind() walks the history forwards, resetting its count at every todo call and
noting a reminder, and decides at the end."""
TARGET = "mca/plan/remind.py"
FAILS = ()


def should_remind(history, plan, after=REMIND_AFTER):
    idle, reminded = 0, False
    for message in history:
        if is_reminder(message):
            reminded = True
        elif message.get("role") == "assistant":
            if touches_plan(message):
                idle, reminded = 0, False
            else:
                idle += 1
    return plan.is_open() and not reminded and idle >= after
