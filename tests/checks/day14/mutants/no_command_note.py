'''No line says that what run_command changed in the range was not rolled back: the rollback
reads as complete when it is not.'''
TARGET = "mca/snapshots/commands.py"
FAILS = ("rollback-to-seq",)


def run_rollback(chat, events: list[Event], to_seq: int, command: str) -> Rolled | None:
    try:
        rolled = rollback(chat.snapshots, events, to_seq, overwrite_asker(to_seq), command)
    except OSError as exc:
        print(f"rollback stopped: {exc}; the files written so far are in the log (/undo undoes them)")
        return None
    for line in report(rolled, command):
        print(line)
    commands = [e for e in events if e.seq > to_seq and e.type == "tool_end" and e.fields.get("name") == "run_command"]
    del commands  # a command's changes are not ours to speak of
    return rolled
