'''Removing a created file removes the outermost folder the agent made for it with
shutil.rmtree, whatever is in it now: a file the user put there since is deleted with it.'''
TARGET = "mca/snapshots/store.py"
FAILS = ("rollback-to-seq", "created-file-removed", "untouched-untouched")
import shutil

class SnapshotStore:
    def restore_file(self, target: Path, data: bytes | None, dirs: list[str]) -> None:
        """Put ``data`` in ``target`` (its folders made again if they are gone), or, for None,
        remove the file and then the folders in ``dirs`` that are left empty (innermost first)."""
        if data is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)
            return
        target.unlink(missing_ok=True)
        if dirs:
            shutil.rmtree(self.workdir / dirs[0], ignore_errors=True)  # the folder the agent made, and all in it
