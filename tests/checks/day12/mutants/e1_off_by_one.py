"""choose_cut() takes the round before the K-th from the end ("K rounds after the cut"):
K + 1 rounds are kept."""
TARGET = "mca/context/compact.py"
FAILS = ("never-splits-a-round", "keeps-system-and-instructions", "compacted-event-logged", "summary-request-shape",
         "bill-printed")  # the cut of every compaction is choose_cut's
MAYBE = ("triggers-over-budget", "no-useless-compaction")


def choose_cut(history, keep=KEEP_ROUNDS):
    starts = round_starts(history)
    if len(starts) <= keep:
        return None
    return starts[max(0, len(starts) - keep - 1)]
