'''restore_file tests `if data:` for "is there content to put back": a file that was
empty at SEQ is deleted instead of restored empty.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("undo-last-round", "rollback-to-seq", "created-file-removed", "user-change-protected")


class SnapshotStore:
    def restore_file(self, target: Path, data: bytes | None, dirs: list[str]) -> None:
        """Put ``data`` in ``target`` (its folders made again if they are gone), or, for None,
        remove the file and then the folders in ``dirs`` that are left empty (innermost first)."""
        if data:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)
            return
        target.unlink(missing_ok=True)
        for folder in reversed(dirs):
            try:
                (self.workdir / folder).rmdir()
            except OSError:  # not empty (something else lives there now) or gone: it stays as it is
                break
