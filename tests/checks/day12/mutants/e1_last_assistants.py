"""choose_cut() counts rounds by the assistant's messages ("each reply is a round"): the cut
lands before an assistant message in the middle of a turn, after the tool results of the one before."""
TARGET = "mca/context/compact.py"
FAILS = ("never-splits-a-round", "keeps-system-and-instructions", "compacted-event-logged", "summary-request-shape",
         "bill-printed")  # the cut of every compaction is choose_cut's
MAYBE = ("triggers-over-budget", "no-useless-compaction")


def choose_cut(history, keep=KEEP_ROUNDS):
    starts = [i for i in range(prefix_end(history), len(history)) if history[i].get("role") == "assistant"]
    if len(starts) <= keep:
        return None
    return starts[len(starts) - keep]
