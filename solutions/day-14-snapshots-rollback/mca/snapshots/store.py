"""The snapshot store: a file's old bytes, kept before a write tool changes the file.

Where: ``<sessions dir>/<session id>/snapshots/``, beside the session's log. What: one
file per content, named by the SHA-256 of its bytes (content addressed). The same bytes
are kept once however often they were saved, and a later save never overwrites an
earlier one, so every point of the session stays reachable. The bytes are taken as they
are: a binary file, a file with Windows line endings, one that is not UTF-8.

The log says which content belonged to which file when. Each change a write tool makes
is one ``snapshot`` event::

    {"type": "snapshot", "path": "calc.py", "hash": "3f2a…", "after": "9c1e…", "dirs": []}

``path`` is relative to the workdir; ``hash`` names the old content in the store (None:
the file did not exist); ``after`` is the hash of what the change left (None: it removed
the file), so a rollback can tell whether the user changed the file since; ``dirs`` are the
folders the change had to make for it (outermost first), which a rollback removes again.

The old bytes reach the store before the file changes. The event follows the change,
because it also says what the change left; a change that fails logs nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Callable, TypeVar

from ..session.log import Event, SessionError, SessionLog, fsync_requested
from ..tools.paths import resolve_inside

T = TypeVar("T")
SNAPSHOTS = "snapshots"  # the store's folder in the session's own folder
DIGEST = re.compile(r"[0-9a-f]{64}")


class SnapshotMissing(SessionError):
    """A snapshot the log names is not in the store (deleted by hand, or another machine's)."""


def digest_of(data: bytes | None) -> str | None:
    """The name of ``data`` in the store: its SHA-256 in hex (None for "no such file")."""
    return None if data is None else hashlib.sha256(data).hexdigest()


def read_bytes(target: Path) -> bytes | None:
    """A file's bytes exactly as they are on disk, or None when there is no such file."""
    return target.read_bytes() if target.is_file() else None


def missing_dirs(workdir: Path, target: Path) -> list[str]:
    """The folders between the workdir and ``target`` that do not exist yet, outermost first."""
    missing = []
    folder = target.parent
    while folder != workdir and workdir in folder.parents and not folder.exists():
        missing.append(folder.relative_to(workdir).as_posix())
        folder = folder.parent
    return missing[::-1]


def write_atomically(target: Path, data: bytes) -> None:
    """``data`` in ``target`` all at once (a temp file in the same folder, then a rename)."""
    temp = target.with_name(f".{target.name}.{os.getpid()}.restore")
    try:
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            if fsync_requested():
                os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


class SnapshotStore:
    """The snapshots of the session in use: its store, and the log its events go to.

    Made once per process (run.py) and handed to the write tools; the chat points it at
    a session each time one starts or is resumed (``open``).
    """

    def __init__(self, workdir: Path) -> None:
        self.workdir = Path(workdir).resolve()
        self.folder: Path | None = None      # <sessions dir>/<id>/snapshots of the session in use
        self.earlier: list[Path] = []        # the stores of the sessions it was forked from, nearest first
        self.log: SessionLog | None = None

    def open(self, sessions_dir: Path, session_id: str, log: SessionLog, events: list[Event]) -> None:
        """Use the session ``session_id``: its store, and its log for the events. A fork's log
        starts with its parent's events, whose snapshots are in the parent's store: those
        stores are looked in too (a fork copies the conversation, never the files)."""
        root = Path(sessions_dir)
        self.folder = root / session_id / SNAPSHOTS
        parents = [str(e.fields.get("from")) for e in events if e.type == "fork" and e.fields.get("from")]
        self.earlier = [root / parent / SNAPSHOTS for parent in reversed(parents)]
        self.log = log

    # -- paths -------------------------------------------------------------------------

    def relative(self, target: Path) -> str:
        """How the log names a file: relative to the workdir, with / separators."""
        return target.relative_to(self.workdir).as_posix()

    def target(self, path: str) -> Path:
        """The file a logged path names (never outside the workdir, whatever the log says)."""
        return resolve_inside(self.workdir, path)

    # -- contents ----------------------------------------------------------------------

    def put(self, data: bytes | None) -> str | None:
        """Keep ``data`` in the store (once: the same bytes have one name); return its name."""
        digest = digest_of(data)
        if digest is None:
            return None
        path = self.folder / digest
        if not path.is_file():
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(path, data)
        return digest

    def get(self, digest: str | None) -> bytes | None:
        """The bytes stored under ``digest`` (None for None: the file did not exist)."""
        if digest is None:
            return None
        if not isinstance(digest, str) or not DIGEST.fullmatch(digest):  # a log is data: never a path
            raise SnapshotMissing(f"{digest!r} is not the name of a snapshot (64 hex digits)")
        for folder in [f for f in (self.folder, *self.earlier) if f is not None]:
            path = folder / digest
            if path.is_file():
                return path.read_bytes()
        raise SnapshotMissing(f"snapshot {str(digest)[:12]} is not in {self.folder} (nor in the stores of the "
                              "sessions this one was forked from); the files it would restore are left as they are")

    # -- a change ----------------------------------------------------------------------

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
        result = change()
        self.record(target, digest, dirs)
        return result

    def record(self, target: Path, digest: str | None, dirs: list[str]) -> Event:
        """Log the ``snapshot`` event of a change just made to ``target``."""
        return self.log.append("snapshot", path=self.relative(target), hash=digest,
                               after=digest_of(read_bytes(target)), dirs=list(dirs))

    def restore_file(self, target: Path, data: bytes | None, dirs: list[str]) -> None:
        """Put ``data`` in ``target`` (its folders made again if they are gone), or, for None,
        remove the file and then the folders in ``dirs`` that are left empty (innermost first)."""
        if data is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data)
            return
        target.unlink(missing_ok=True)
        for folder in reversed(dirs):
            try:
                (self.workdir / folder).rmdir()
            except OSError:  # not empty (something else lives there now) or gone: it stays as it is
                break

    def note_rollback(self, to_seq: int, files: list[str], kept: list[str], command: str) -> Event:
        """Log a rollback before its writes: they are its round (``/undo`` undoes them together)."""
        return self.log.append("rollback", to_seq=to_seq, command=command, files=files, kept=kept)


__all__ = ["SNAPSHOTS", "SnapshotMissing", "SnapshotStore", "digest_of", "missing_dirs", "read_bytes",
           "write_atomically"]
