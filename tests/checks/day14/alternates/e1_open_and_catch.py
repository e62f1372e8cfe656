'''save opens the file itself and takes "no such file" from the exception, hashes and stores
the bytes before the change, and computes the missing folders by walking up from the file.'''
TARGET = "mca/snapshots/store.py"
FAILS = ()


class SnapshotStore:
    def save(self, target, change):
        if self.folder is None or self.log is None:
            return change()
        try:
            with open(target, "rb") as handle:
                before = handle.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            before = None
        made = []
        folder = target.parent
        while not folder.exists() and folder != self.workdir:
            made.insert(0, folder.relative_to(self.workdir).as_posix())
            folder = folder.parent
        kept = None if before is None else self.put(before)
        result = change()
        self.record(target, kept, made)
        return result
