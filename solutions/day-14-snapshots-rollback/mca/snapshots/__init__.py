"""Snapshots: what a write tool changed can be put back, file by file.

* ``store``    - the content-addressed store beside the session log, and ``save``: a file's
  old bytes kept, the change made, one ``snapshot`` event logged;
* ``tools``    - the write tools (write_file, edit_file, delete_file), each saving first;
* ``rollback`` - ``/rollback SEQ`` and ``/undo``: every file the agent changed since a point of
  the log, back as it was then, newest change first, a file the user changed since asked about.

The log restores the conversation (day 7: replay, resume, fork); snapshots restore files.
They are separate on purpose: a fork leaves the files as they are, a rollback leaves the
conversation as it is, and the user may do both, either or neither.
"""

from __future__ import annotations

from .rollback import Rolled, last_round_start, overwrite_asker, rollback
from .store import SnapshotMissing, SnapshotStore
from .tools import WRITE_TOOLS, snapshot_writes

__all__ = ["Rolled", "SnapshotMissing", "SnapshotStore", "WRITE_TOOLS", "last_round_start", "overwrite_asker",
           "rollback", "snapshot_writes"]
