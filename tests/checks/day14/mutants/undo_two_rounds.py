'''/undo goes back one round start too far (an off-by-one in the provided last_round_start):
the last round and the one before it are undone at once.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("undo-last-round", "rollback-undoable")


def last_round_start(events):
    snapshots = [event.seq for event in events if event.type == "snapshot"]
    if not snapshots:
        return None
    starts = [event.seq for event in events if event.seq < snapshots[-1] and is_round_start(event)]
    return starts[-2] if len(starts) >= 2 else 0
