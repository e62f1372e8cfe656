'''Only the newest snapshot of each file is kept ("the store would grow for ever"): saving
a file again deletes its previous snapshot from the store, so a rollback past two of its
changes, or past a rollback that wrote it twice, finds nothing to restore.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq", "created-file-removed",
         "untouched-untouched", "rollback-undoable", "fork-is-not-rollback")


class SnapshotStore:
    def __init__(self, workdir):
        self.workdir = Path(workdir).resolve()
        self.folder = None
        self.earlier = []
        self.log = None
        self.newest = {}

    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        before = read_bytes(target)
        dirs = missing_dirs(self.workdir, target)
        digest = self.put(before)
        result = change()
        self.record(target, digest, dirs)
        path = self.relative(target)
        older = self.newest.get(path)
        if older and older != digest:
            (self.folder / older).unlink(missing_ok=True)
        if digest:
            self.newest[path] = digest
        return result
