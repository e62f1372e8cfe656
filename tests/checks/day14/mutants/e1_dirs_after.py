'''The folders a change makes are asked for once the change is done: by then they exist,
so no snapshot says the agent made them, and a rollback leaves them behind, empty.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("undo-last-round", "rollback-to-seq", "created-file-removed")


class SnapshotStore:
    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        before = read_bytes(target)
        digest = self.put(before)
        result = change()
        self.record(target, digest, missing_dirs(self.workdir, target))
        return result
