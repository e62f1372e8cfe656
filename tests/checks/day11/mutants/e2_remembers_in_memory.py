"""should_remind() remembers in the process which stretch it has reminded (by the place of the
last todo call) instead of reading the history: a resumed process reminds that stretch again."""
TARGET = "mca/plan/remind.py"
ADD = ("_Reminded",)
FAILS = ("reminder-accounted",)


class _Reminded:
    """The stretches this process has reminded, by the place of their todo call."""

    starts = set()


def should_remind(history, plan, after=REMIND_AFTER):
    if not plan.is_open():
        return False
    idle, start = 0, -1
    for index in range(len(history) - 1, -1, -1):
        message = history[index]
        if message.get("role") == "assistant":
            if touches_plan(message):
                start = index
                break
            idle += 1
    if idle < after or start in _Reminded.starts:
        return False
    _Reminded.starts.add(start)
    return True
