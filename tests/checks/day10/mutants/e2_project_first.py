"""recall() puts every project memory before every user memory (each newest first), reading
"project over user" as an order: a newer user memory waits behind older project ones."""
TARGET = "mca/memory/recall.py"
FAILS = ("recall-budget", "project-over-user")


def recall(user, project, budget=RECALL_BUDGET):
    keys = {m.key for m in project}
    candidates = sorted(project, key=lambda m: m.at, reverse=True) + \
        sorted([m for m in user if m.key not in keys], key=lambda m: m.at, reverse=True)
    taken, used = [], 0
    for memory in candidates:
        if budget is not None and used + len(memory.text) > budget:
            break
        taken.append(memory)
        used += len(memory.text)
    return Recall(taken, len(candidates) - len(taken))
