"""choose_cut() walks back from the end, counting user messages, and stops at the prefix."""
TARGET = "mca/context/compact.py"
FAILS = ()


def choose_cut(history, keep=KEEP_ROUNDS):
    if keep == 0:
        return len(history) if round_starts(history) else None
    seen = 0
    for index in range(len(history) - 1, prefix_end(history) - 1, -1):
        if history[index].get("role") == "user":
            seen += 1
            if seen == keep:
                older = [m for m in history[prefix_end(history):index] if m.get("role") == "user"]
                return index if older else None
    return None
