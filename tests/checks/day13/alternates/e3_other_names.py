"""open_child_log() links the logs with a parent event of another name (spawned: child_session,
tool_call) and a first event that also records the child's depth."""
TARGET = "mca/agent/subagent.py"
FAILS = ()


def open_child_log(chat, call_id, description):
    where = subagents_dir(chat.sessions_dir, chat.session_id)
    log = SessionLog.create(where)
    chat.log.append("spawned", tool_call=call_id, child_session=log.session_id, log=str(log.path.name))
    log.append("message", message={"role": "system", "content": CHILD_SYSTEM_PROMPT}, config=chat.agent.config,
               parent_session=chat.session_id, parent_call=call_id, depth=1)
    return log
