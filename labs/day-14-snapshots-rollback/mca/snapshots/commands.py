"""``/rollback``, ``/rollback SEQ`` and ``/undo``: the REPL's side of a rollback.

They read the session's log, call ``rollback`` and print what it did, one line per file.
A file the user changed since the agent's last change to it is asked about on a terminal;
without one it is kept, and the line says how to be asked.
"""

from __future__ import annotations

from ..commands import UserError, preview
from ..session import read_events
from ..session.log import Event
from .rollback import Rolled, changes_after, is_round_start, last_round_start, overwrite_asker, rollback


def session_events(chat) -> list[Event]:
    if chat.log is None or chat.snapshots is None:
        raise UserError("no session yet: send a request first")
    return read_events(chat.log.path).events


def rollback_command(chat, rest: str) -> None:
    """``/rollback`` lists the points to go back to; ``/rollback SEQ`` goes back to one."""
    events = session_events(chat)
    if not rest:
        print("\n".join(rollback_points(events)) or "nothing to roll back: the agent has changed no file yet")
        return
    last = events[-1].seq if events else 0
    if not rest.isdigit() or not 1 <= int(rest) <= last:
        raise UserError(f"usage: /rollback SEQ, where SEQ is an event of this session (1 to {last}; /log lists "
                        "them, /rollback alone the rounds)")
    run_rollback(chat, events, int(rest), f"/rollback {rest}")


def undo_command(chat, _rest: str) -> None:
    """``/undo``: the files of the last round that changed any, back as they were before it."""
    events = session_events(chat)
    start = last_round_start(events)
    if start is None:
        print("nothing to undo: the agent has changed no file in this session")
        return
    run_rollback(chat, events, start, "/undo")


def run_rollback(chat, events: list[Event], to_seq: int, command: str) -> Rolled | None:
    try:
        rolled = rollback(chat.snapshots, events, to_seq, overwrite_asker(to_seq), command)
    except OSError as exc:
        print(f"rollback stopped: {exc}; the files written so far are in the log (/undo undoes them)")
        return None
    for line in report(rolled, command):
        print(line)
    commands = [e for e in events if e.seq > to_seq and e.type == "tool_end" and e.fields.get("name") == "run_command"]
    if commands and rolled.touched:
        print(f"note: {len(commands)} run_command call(s) since seq {to_seq}: what a command changed is not "
              "snapshotted, so it was not rolled back")
    return rolled


def report(rolled: Rolled, command: str) -> list[str]:
    """What a rollback did, one line per file, then one line for all of it."""
    if not rolled.touched and not rolled.changes:
        return [f"nothing to roll back: the log has no snapshot after seq {rolled.to_seq} (no file tool changed a "
                "file since, or its changes were not snapshotted)"]
    if not rolled.touched:
        return [f"nothing to roll back: the files the agent changed after seq {rolled.to_seq} are as they were then"]
    lines = [f"  restored {path}" for path in rolled.restored] + [f"  removed {path}" for path in rolled.removed]
    for path in rolled.kept:
        why = ("you chose to keep it" if rolled.asked else
               f"there is no terminal to ask; run {command} on a terminal to choose")
        lines.append(f"  kept {path}: it changed since the agent's last change to it, and {why}")
    what = f"undid the round after seq {rolled.to_seq}" if command == "/undo" else f"rolled back to seq {rolled.to_seq}"
    lines.append(f"{what}: {len(rolled.restored)} restored, {len(rolled.removed)} removed, {len(rolled.kept)} kept "
                 "(/undo undoes this; the conversation is as it was)")
    return lines


def rollback_points(events: list[Event]) -> list[str]:
    """``/rollback N  before "the request"  (then: files)`` for each round that changed files."""
    starts = [event for event in events if is_round_start(event)]
    lines = []
    for n, start in enumerate(starts):
        end = starts[n + 1].seq if n + 1 < len(starts) else None
        paths = sorted({e.fields.get("path") for e in changes_after(events, start.seq)
                        if end is None or e.seq < end})
        if not paths:
            continue
        what = (f"before {preview((start.message or {}).get('content'), 40)!r}" if start.type == "message"
                else f"before the {start.fields.get('command', 'rollback')} at seq {start.seq}")
        lines.append(f"/rollback {start.seq:<4} {what}  (then: {', '.join(map(str, paths))})")
    return lines


__all__ = ["rollback_command", "undo_command"]
