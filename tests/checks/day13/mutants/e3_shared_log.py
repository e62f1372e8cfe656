"""The subagent writes into its parent's log ("one session, one file"): its messages are in
the parent's log, and a resumed parent gets them back in its history."""
TARGET = "mca/agent/subagent.py"
FAILS = ("lineage-logged",)


def open_child_log(chat, call_id, description):
    parent = chat.log
    parent.append("subagent", call=call_id, session=parent.session_id, description=description)
    parent.append("message", message={"role": "system", "content": CHILD_SYSTEM_PROMPT},
                  parent_session=parent.session_id, parent_call=call_id)
    return parent


class Child:
    def close(self):
        """The log is the parent's: it stays open."""
