'''Snapshots kept under the file's own path ("one backup per file", like calc.py.orig), and
the log names that path: a later snapshot of the same file overwrites the earlier one, so
going back past two changes of a file gives the state between them.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq",
         "rollback-undoable", "fork-is-not-rollback")


class SnapshotStore:
    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        before = read_bytes(target)
        dirs = missing_dirs(self.workdir, target)
        key = None
        if before is not None:
            key = self.relative(target)
            backup = self.folder / key
            backup.parent.mkdir(parents=True, exist_ok=True)
            backup.write_bytes(before)
        result = change()
        self.record(target, key, dirs)
        return result

    def get(self, digest):
        if digest is None:
            return None
        for folder in [f for f in (self.folder, *self.earlier) if f is not None]:
            if (folder / digest).is_file():
                return (folder / digest).read_bytes()
        raise SnapshotMissing(f"no backup of {digest}")
