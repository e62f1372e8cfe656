'''put() keeps nothing for empty bytes ("nothing to keep") and returns None: an existing
empty file is logged as one that did not exist, and a rollback deletes it.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq",
         "created-file-removed", "user-change-protected")


class SnapshotStore:
    def put(self, data: bytes | None) -> str | None:
        """Keep ``data`` in the store (once: the same bytes have one name); return its name."""
        if not data:
            return None  # nothing to keep
        digest = digest_of(data)
        path = self.folder / digest
        if not path.is_file():
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(path, data)
        return digest
