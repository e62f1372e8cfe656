"""Rollback: every file the agent changed since a point of the log, put back as it was then.

``/rollback SEQ`` reads the ``snapshot`` events logged after event SEQ and undoes them,
the newest first: each change is undone in the state the change after it left, so a
file changed three times ends as the first snapshot found it, a file the agent created
is removed (and the folders it made for it), and a file the agent never changed is never
written. A file whose bytes are not what the agent's last change left was changed by
someone else since: it is only overwritten when the person at the terminal says so.

A rollback is a round of its own: a ``rollback`` event first, then a ``snapshot`` event for
each file it writes, made through the same ``save`` as the tools' writes. So ``/undo``,
which undoes the files of the last round that changed any, undoes a rollback too.

What a rollback does not touch: the conversation. The messages stay as they are (a fork
is how the conversation goes back: day 7), and what ``run_command`` changed was never
snapshotted, so it stays too.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

from ..session.log import Event
from .store import SnapshotStore, digest_of, read_bytes

Ask = Callable[[str], bool]  # path -> may the rollback overwrite what the user changed there?


@dataclass
class Rolled:
    """What a rollback did, file by file (paths relative to the workdir)."""

    to_seq: int
    restored: list[str] = field(default_factory=list)  # written back with the bytes they had at to_seq
    removed: list[str] = field(default_factory=list)   # did not exist at to_seq: deleted
    kept: list[str] = field(default_factory=list)      # changed by the user since: left as they are
    asked: bool = False                                # someone at a terminal could be asked about them
    changes: int = 0                                   # snapshot events after to_seq

    @property
    def touched(self) -> int:
        return len(self.restored) + len(self.removed) + len(self.kept)


def changes_after(events: list[Event], to_seq: int) -> list[Event]:
    """The ``snapshot`` events logged after event ``to_seq``, in log order."""
    return [event for event in events if event.type == "snapshot" and event.seq > to_seq]


def rollback(store: SnapshotStore, events: list[Event], to_seq: int, ask: Ask | None = None,
             command: str = "/rollback") -> Rolled:
    """Put every file changed after event ``to_seq`` back as it was at ``to_seq``.

    ``events`` are the session's log; ``ask(path)`` says whether a file the user changed since
    the agent's last change to it may be overwritten (None: nobody can be asked, so it is not).
    The ``rollback`` event is logged (``store.note_rollback``) before the first write, and every
    write goes through ``store.save``, so the rollback can itself be undone.
    """
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None, changes=len(changes))
    if not changes:
        return rolled  # nothing changed since: nothing to do, nothing to log
    newest: dict[str, Event] = {}
    for event in changes:
        newest[event.fields["path"]] = event  # the last change made to each file
    for path, event in newest.items():
        now = digest_of(read_bytes(store.target(path)))
        if now != event.fields.get("after") and (ask is None or not ask(path)):
            rolled.kept.append(path)  # changed by someone else since: theirs, unless they say so
    undo = []  # (the file, its old bytes or None: it did not exist, the folders made for it), newest first
    for event in reversed(changes):  # each change is undone on what the change after it left
        if event.fields["path"] not in rolled.kept:
            undo.append((store.target(event.fields["path"]), store.get(event.fields.get("hash")),
                         event.fields.get("dirs") or []))  # every old content found before anything is written
    store.note_rollback(to_seq, sorted(newest), sorted(rolled.kept), command)
    written = set()
    for target, old, dirs in undo:
        if read_bytes(target) != old:  # a file already as it was is not written again
            store.save(target, lambda: store.restore_file(target, old, dirs))
            written.add(store.relative(target))
    for path in sorted(written):
        (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled


def last_round_start(events: list[Event]) -> int | None:
    """Where the last round that changed a file starts: the seq of its user message (or of
    the ``rollback`` event, for a rollback's own writes); None when no file was ever changed.
    ``/undo`` is a rollback to it."""
    snapshots = [event.seq for event in events if event.type == "snapshot"]
    if not snapshots:
        return None
    starts = [event.seq for event in events if event.seq < snapshots[-1] and is_round_start(event)]
    return starts[-1] if starts else 0


def is_round_start(event: Event) -> bool:
    """A user message, or a rollback: what the files of a round are changed after."""
    return event.type == "rollback" or (event.type == "message" and (event.message or {}).get("role") == "user")


def ask_on_terminal(path: str, to_seq: int) -> bool:
    """Ask whether to overwrite what the user changed; anything but yes (EOF too) is a no."""
    try:
        answer = input(f"  {path} changed since the agent's last change to it. Put it back as it was at "
                       f"seq {to_seq}, and lose that change? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def overwrite_asker(to_seq: int, stdin=None) -> Ask | None:
    """Who answers for a file the user changed: the person at the terminal, or nobody."""
    stdin = sys.stdin if stdin is None else stdin
    try:
        terminal = stdin is not None and stdin.isatty()
    except ValueError:  # a closed stdin
        terminal = False
    if not terminal:
        return None  # a pipe, a file, CI: nobody will answer, so nobody's change is overwritten
    return lambda path: ask_on_terminal(path, to_seq)


__all__ = ["Ask", "Rolled", "changes_after", "is_round_start", "last_round_start", "overwrite_asker", "rollback"]
