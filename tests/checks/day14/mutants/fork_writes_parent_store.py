'''A fork keeps its own snapshots in the store of the session it came from ("one store per
family"): rollbacks still work, but the fork's .sessions/<id>/snapshots/ stays empty.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("fork-is-not-rollback",)


class SnapshotStore:
    def open(self, sessions_dir: Path, session_id: str, log: SessionLog, events: list[Event]) -> None:
        """Use the session ``session_id``: its store, and its log for the events. A fork's log
        starts with its parent's events, whose snapshots are in the parent's store: those
        stores are looked in too (a fork copies the conversation, never the files)."""
        root = Path(sessions_dir)
        self.folder = root / session_id / SNAPSHOTS
        parents = [str(e.fields.get("from")) for e in events if e.type == "fork" and e.fields.get("from")]
        self.earlier = [root / parent / SNAPSHOTS for parent in reversed(parents)]
        if self.earlier:  # a fork shares the store of the session it came from: one store per family
            self.folder = root / parents[0] / SNAPSHOTS
        self.log = log
