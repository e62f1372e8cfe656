"""recall() counts the budget in UTF-8 bytes, not characters: text in CJK or with emoji uses
it up three or four times as fast."""
TARGET = "mca/memory/recall.py"
FAILS = ("recall-budget", "project-over-user")


def recall(user, project, budget=RECALL_BUDGET):
    keys = {m.key for m in project}
    candidates = sorted(list(project) + [m for m in user if m.key not in keys], key=lambda m: m.at, reverse=True)
    if budget is None:
        return Recall(candidates, 0)
    taken, used = [], 0
    for memory in candidates:
        size = len(memory.text.encode("utf-8"))
        if used + size > budget:
            break
        taken.append(memory)
        used += size
    return Recall(taken, len(candidates) - len(taken))
