'''The trap half fixed: whether the file existed is asked before the change (so a new file
is noted as new), but its bytes are still read after it, so an edit or an overwrite keeps
the new content and a deletion keeps "did not exist".'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq", "created-file-removed",
         "user-change-protected", "rollback-undoable", "fork-is-not-rollback")


class SnapshotStore:
    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        existed = target.is_file()  # a new file has to be recorded as new
        dirs = missing_dirs(self.workdir, target)
        result = change()
        before = read_bytes(target) if existed else None
        self.record(target, self.put(before), dirs)
        return result
