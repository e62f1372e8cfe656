'''changes_after takes the snapshot events from SEQ on (seq >= SEQ): /rollback to a snapshot
event's own seq undoes that change too.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("rollback-to-seq",)


def changes_after(events: list[Event], to_seq: int) -> list[Event]:
    """The ``snapshot`` events logged after event ``to_seq``, in log order."""
    return [event for event in events if event.type == "snapshot" and event.seq >= to_seq]
