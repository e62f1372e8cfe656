"""choose_cut() indexes the round starts from the end with starts[-keep]: with K = 0 that is
starts[0], the first round, so nothing is summarised at all."""
TARGET = "mca/context/compact.py"
FAILS = ("never-splits-a-round",)


def choose_cut(history, keep=KEEP_ROUNDS):
    starts = round_starts(history)
    if len(starts) <= keep:
        return None
    return starts[-keep]
