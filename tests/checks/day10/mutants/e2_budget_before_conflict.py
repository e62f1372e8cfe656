"""recall() fills the budget first and drops the losing user memories afterwards: a user
memory that loses to the project still took room, and a winner is left out."""
TARGET = "mca/memory/recall.py"
FAILS = ("project-over-user",)


def recall(user, project, budget=RECALL_BUDGET):
    candidates = sorted(list(project) + list(user), key=lambda m: m.at, reverse=True)
    taken, used = [], 0
    for memory in candidates:
        if budget is not None and used + len(memory.text) > budget:
            break
        taken.append(memory)
        used += len(memory.text)
    keys = {m.key for m in project}
    kept = [m for m in taken if m.scope == "project" or m.key not in keys]
    return Recall(kept, len(candidates) - len(taken))
