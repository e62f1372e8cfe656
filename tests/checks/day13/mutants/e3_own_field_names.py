"""open_child_log() links both logs under names of its own (parent, started_by): nothing that
reads the log format finds parent_session and parent_call."""
TARGET = "mca/agent/subagent.py"
FAILS = ("lineage-logged",)


def open_child_log(chat, call_id, description):
    parent = chat.log
    log = SessionLog.create(subagents_dir(chat.sessions_dir, parent.session_id))
    first = {"role": "system", "content": CHILD_SYSTEM_PROMPT}
    log.append("message", message=first, config=chat.agent.config, parent=parent.session_id, started_by=call_id)
    parent.append("subagent", call=call_id, session=log.session_id, description=description)
    return log
