"""should_remind() counts the idle rounds of the current turn only (back to the user's last
message): a stretch that crosses the end of a turn starts again from zero."""
TARGET = "mca/plan/remind.py"
FAILS = ("reminder-after-n",)


def should_remind(history, plan, after=REMIND_AFTER):
    if not plan.is_open():
        return False
    idle = 0
    for message in reversed(history):
        if is_reminder(message):
            return False
        if message.get("role") == "user":
            break
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after
