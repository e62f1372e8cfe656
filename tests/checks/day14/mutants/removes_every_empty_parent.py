'''Removing a created file also removes every parent folder it leaves empty
("no empty folders left"), not only the folders its change made: the user's own empty folders go too.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("rollback-to-seq", "created-file-removed")


class SnapshotStore:
    def restore_file(self, target: Path, data: bytes | None, dirs: list[str]) -> None:
        """Put ``data`` in ``target`` (its folders made again if they are gone), or, for None,
        remove the file and then the folders in ``dirs`` that are left empty (innermost first)."""
        if data is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)
            return
        target.unlink(missing_ok=True)
        folder = target.parent
        while folder != self.workdir and self.workdir in folder.parents:  # tidy up: no empty folders left
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent
