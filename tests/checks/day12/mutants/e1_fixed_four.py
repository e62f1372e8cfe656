"""choose_cut() keeps a fixed number of messages per round ("a round is a question, a call,
its result and the answer"): inside a long tool round the cut separates results from calls."""
TARGET = "mca/context/compact.py"
FAILS = ("never-splits-a-round", "keeps-system-and-instructions", "compacted-event-logged", "summary-request-shape",
         "bill-printed")  # the cut of every compaction is choose_cut's
MAYBE = ("triggers-over-budget", "no-useless-compaction")


def choose_cut(history, keep=KEEP_ROUNDS):
    cut = len(history) - 4 * keep
    return cut if cut > prefix_end(history) else None
