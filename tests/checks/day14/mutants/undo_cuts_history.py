'''/undo also cuts the conversation back to before the undone round's request ("undo the
request too"): the next request has forgotten it.'''
TARGET = "mca/snapshots/commands.py"
FAILS = ("undo-last-round",)


def undo_command(chat, _rest: str) -> None:
    """``/undo``: the files of the last round that changed any, back as they were before it."""
    events = session_events(chat)
    start = last_round_start(events)
    if start is None:
        print("nothing to undo: the agent has changed no file in this session")
        return
    keep = sum(1 for e in events if e.type == "message" and e.seq < start)
    if any(e.seq == start and e.type == "message" for e in events):
        chat.history[:] = chat.history[:keep]  # undo the request as well as its files
    run_rollback(chat, events, start, "/undo")
