'''/fork N also puts the files back as they were at N ("a fork goes back in time"): the
session that was forked from loses its files, and the fork's own work starts from files
the user never asked to change.'''
TARGET = "mca/repl.py"
FAILS = ("fork-is-not-rollback",)
from .snapshots.commands import run_rollback


def fork_command(chat, rest):
    if not rest:
        result = current_events(chat)
        points = fork_points(result.events)
        print("\n".join(fork_menu(result.events, points)) or "no fork points yet")
        return
    if not rest.isdigit():
        raise UserError("usage: /fork N, where N is one of the numbers /fork lists")
    if chat.session_id is None:
        raise UserError("no session yet: send a request first")
    parent = chat.session_id
    events = current_events(chat).events
    new_id = fork_session(chat.sessions_dir, parent, int(rest))
    chat.resume(new_id)
    run_rollback(chat, events, int(rest), f"/fork {rest}")  # the files go back with the conversation
    print(f"forked {parent} at {rest}; now in {new_id} ({parent} is left as it was)")
