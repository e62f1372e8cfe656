"""should_remind() says yes on every round once the stretch is long enough: no look for a
reminder already sent."""
TARGET = "mca/plan/remind.py"
FAILS = ("reminder-after-n", "reminder-accounted")


def should_remind(history, plan, after=REMIND_AFTER):
    if not plan.is_open():
        return False
    idle = 0
    for message in reversed(history):
        if message.get("role") == "assistant":
            if touches_plan(message):
                break
            idle += 1
    return idle >= after
