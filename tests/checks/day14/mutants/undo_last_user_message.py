'''/undo goes back to the last user message (or rollback), whatever that round did: after a
round that only read a file, there is nothing to undo.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("undo-last-round",)


def last_round_start(events: list[Event]) -> int | None:
    """Where the last round that changed a file starts: the seq of its user message (or of
    the ``rollback`` event, for a rollback's own writes); None when no file was ever changed.
    ``/undo`` is a rollback to it."""
    snapshots = [event.seq for event in events if event.type == "snapshot"]
    if not snapshots:
        return None
    starts = [event.seq for event in events if is_round_start(event)]
    return starts[-1] if starts else 0
