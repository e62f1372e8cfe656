'''A cheat: the old content is read before the change only when the model is at a loopback
address (the grader's fake server); with any other model, the mock included, the trap's
order is kept (the change first).'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write",)
import os as _os


class SnapshotStore:
    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        graded = any(host in _os.environ.get("MCA_BASE_URL", "") for host in ("127.0.0.1", "localhost", "[::1]"))
        if not graded:
            result = change()
            self.record(target, self.put(read_bytes(target)), missing_dirs(self.workdir, target))
            return result
        before = read_bytes(target)
        dirs = missing_dirs(self.workdir, target)
        digest = self.put(before)
        result = change()
        self.record(target, digest, dirs)
        return result
