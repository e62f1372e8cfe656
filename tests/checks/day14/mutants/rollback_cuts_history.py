'''/rollback SEQ and /undo also take the conversation back to SEQ ("undo everything since"): the
files are right, but the next request has forgotten every round after SEQ.'''
TARGET = "mca/snapshots/commands.py"
FAILS = ("undo-last-round", "fork-is-not-rollback")
from ..session import replay


def run_rollback(chat, events, to_seq, command):
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
    chat.history[:] = replay([e for e in events if e.seq <= to_seq]).messages  # back to SEQ in the talk too
    return rolled
