'''The old content read as text (UTF-8, undecodable bytes replaced) and stored encoded
again: a binary file's snapshot is not its bytes, so restoring it gives a damaged file.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq", "user-change-protected")


class SnapshotStore:
    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        before = target.read_text(encoding="utf-8", errors="replace").encode("utf-8") if target.is_file() else None
        dirs = missing_dirs(self.workdir, target)
        digest = self.put(before)
        result = change()
        self.record(target, digest, dirs)
        return result
