"""choose_cut() cuts before any message that is not a tool result ("never between a call and its
result" and nothing more): it keeps the last K model rounds, not the last K user rounds."""
TARGET = "mca/context/compact.py"
FAILS = ("never-splits-a-round", "keeps-system-and-instructions", "compacted-event-logged", "summary-request-shape",
         "bill-printed")  # the cut of every compaction is choose_cut's
MAYBE = ("triggers-over-budget", "no-useless-compaction")


def choose_cut(history, keep=KEEP_ROUNDS):
    start = prefix_end(history)
    starts = [i for i in range(start, len(history))
              if history[i].get("role") == "user" or
              (history[i].get("role") == "assistant" and history[i - 1].get("role") != "assistant")]
    if len(starts) <= keep:
        return None
    return starts[len(starts) - keep]
