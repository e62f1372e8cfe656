"""recall() skips a memory that does not fit and tries the older ones ("use the budget
fully"): an older short memory jumps the queue past a newer one."""
TARGET = "mca/memory/recall.py"
FAILS = ("recall-budget",)


def recall(user, project, budget=RECALL_BUDGET):
    keys = {m.key for m in project}
    candidates = sorted(list(project) + [m for m in user if m.key not in keys], key=lambda m: m.at, reverse=True)
    if budget is None:
        return Recall(candidates, 0)
    taken, used = [], 0
    for memory in candidates:
        if used + len(memory.text) <= budget:
            taken.append(memory)
            used += len(memory.text)
    return Recall(taken, len(candidates) - len(taken))
