"""open_child_log() links the subagent's log to its parent, but not the parent's to the
subagent: from the parent's log nobody can find what the side task did."""
TARGET = "mca/agent/subagent.py"
FAILS = ("lineage-logged",)


def open_child_log(chat, call_id, description):
    parent = chat.log
    log = SessionLog.create(subagents_dir(chat.sessions_dir, parent.session_id))
    first = {"role": "system", "content": CHILD_SYSTEM_PROMPT}
    log.append("message", message=first, config=chat.agent.config, parent_session=parent.session_id,
               parent_call=call_id, description=description)
    return log
