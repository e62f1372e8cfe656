"""recall() settles a conflict by time ("the newest memory is the truth"): a newer user
memory beats the project's on the same key."""
TARGET = "mca/memory/recall.py"
FAILS = ("project-over-user",)


def recall(user, project, budget=RECALL_BUDGET):
    best = {}
    for memory in list(project) + list(user):
        if memory.key not in best or memory.at > best[memory.key].at:
            best[memory.key] = memory
    candidates = sorted(best.values(), key=lambda m: m.at, reverse=True)
    if budget is None:
        return Recall(candidates, 0)
    taken, used = [], 0
    for memory in candidates:
        if used + len(memory.text) > budget:
            break
        taken.append(memory)
        used += len(memory.text)
    return Recall(taken, len(candidates) - len(taken))
