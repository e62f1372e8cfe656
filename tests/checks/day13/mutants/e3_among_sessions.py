"""open_child_log() links both logs, but creates the subagent's in the sessions dir itself, as
any session: it is then the latest session, and --resume continues the subagent."""
TARGET = "mca/agent/subagent.py"
FAILS = ("lineage-logged",)


def open_child_log(chat, call_id, description):
    parent = chat.log
    log = SessionLog.create(chat.sessions_dir)
    first = {"role": "system", "content": CHILD_SYSTEM_PROMPT}
    log.append("message", message=first, config=chat.agent.config, parent_session=parent.session_id,
               parent_call=call_id, description=description)
    parent.append("subagent", call=call_id, session=log.session_id, description=description)
    return log
