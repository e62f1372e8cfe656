'''/rollback SEQ also takes the conversation back to SEQ ("undo everything since"): the
files are right, but the next request has forgotten every round after SEQ.'''
TARGET = "mca/snapshots/commands.py"
FAILS = ("fork-is-not-rollback",)
from ..session import replay


def run_rollback(chat, events, to_seq, command):
    try:
        rolled = rollback(chat.snapshots, events, to_seq, overwrite_asker(to_seq), command)
    except OSError as exc:
        print(f"rollback stopped: {exc}; the files written so far are in the log (/undo undoes them)")
        return None
    for line in report(rolled, command):
        print(line)
    chat.history[:] = replay([e for e in events if e.seq <= to_seq]).messages  # back to SEQ in the talk too
    return rolled
