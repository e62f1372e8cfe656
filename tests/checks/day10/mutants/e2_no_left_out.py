"""recall() chooses the right memories but never counts what the budget left out: the bill
says "recalled 5 of 5" when there were 9."""
TARGET = "mca/memory/recall.py"
FAILS = ("recall-budget", "bill-printed")


def recall(user, project, budget=RECALL_BUDGET):
    keys = {m.key for m in project}
    candidates = sorted(list(project) + [m for m in user if m.key not in keys], key=lambda m: m.at, reverse=True)
    taken, used = [], 0
    for memory in candidates:
        if budget is not None and used + len(memory.text) > budget:
            break
        taken.append(memory)
        used += len(memory.text)
    return Recall(taken, 0)
