'''After /rollback SEQ a system message tells the model which files were restored and removed
(and is logged): the next request carries one message more than the conversation had.'''
TARGET = "mca/snapshots/commands.py"
FAILS = ("fork-is-not-rollback",)


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
    rolled = run_rollback(chat, events, int(rest), f"/rollback {rest}")
    if rolled is not None and rolled.touched:  # so the model does not work from files that are gone
        note = {"role": "system", "content": f"Files were rolled back to seq {rest}: restored "
                f"{', '.join(rolled.restored) or 'none'}; removed {', '.join(rolled.removed) or 'none'}."}
        chat.history.append(note)
        chat.log.append("message", message=note)
