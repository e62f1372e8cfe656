'''save records the snapshot event in a `finally`, so a change that raises (an edit whose
old text is not there) logs a snapshot too, and the failed round looks like one that changed a file.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write",)


class SnapshotStore:
    def save(self, target: Path, change: Callable[[], T]) -> T:
        """Make ``change`` (a write tool's work on ``target``) undoable, and return what it returns.

        What ``target`` holds now is kept in the store first (or that it did not exist); then
        the change is made; then one ``snapshot`` event names the old content, what the change
        left and the folders it made. A change that raises logs nothing.
        """
        if self.folder is None or self.log is None:
            return change()  # no session yet (a harness, a test): nothing to log it in
        before = read_bytes(target)                  # the bytes as they are now, or None: no such file
        dirs = missing_dirs(self.workdir, target)    # the folders the change will have to make
        digest = self.put(before)                    # in the store before anything changes
        try:
            return change()
        finally:
            self.record(target, digest, dirs)  # every call, recorded
