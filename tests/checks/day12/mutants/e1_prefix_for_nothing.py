"""choose_cut() returns the end of the prefix when there is nothing to cut ("summarise nothing"):
the caller then asks the model to summarise an empty list."""
TARGET = "mca/context/compact.py"
FAILS = ("never-splits-a-round", "no-useless-compaction")


def choose_cut(history, keep=KEEP_ROUNDS):
    starts = round_starts(history)
    if len(starts) <= keep:
        return prefix_end(history)
    return starts[len(starts) - keep]
