"""recall() merges the two newest-first lists with heapq.merge and takes the prefix that fits
with itertools.accumulate."""
TARGET = "mca/memory/recall.py"
FAILS = ()

import heapq
import itertools


def recall(user, project, budget=RECALL_BUDGET):
    taken_keys = {m.key for m in project}
    users = sorted((m for m in user if m.key not in taken_keys), key=lambda m: -m.at)
    merged = list(heapq.merge(sorted(project, key=lambda m: -m.at), users, key=lambda m: -m.at))
    if budget is None:
        return Recall(merged, 0)
    sizes = itertools.accumulate(len(m.text) for m in merged)
    count = sum(1 for _ in itertools.takewhile(lambda total: total <= budget, sizes))
    return Recall(merged[:count], len(merged) - count)
