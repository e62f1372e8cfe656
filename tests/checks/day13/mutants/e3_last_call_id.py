"""open_child_log() finds the call it answers in the parent's history: the last call of the
last reply. With several task calls in one reply, every subagent names the last one."""
TARGET = "mca/agent/subagent.py"
FAILS = ("lineage-logged",)


def open_child_log(chat, call_id, description):
    parent = chat.log
    log = SessionLog.create(subagents_dir(chat.sessions_dir, parent.session_id))
    first = {"role": "system", "content": CHILD_SYSTEM_PROMPT}
    asked = next(m for m in reversed(chat.history) if m.get("tool_calls"))
    started_by = asked["tool_calls"][-1]["id"]
    log.append("message", message=first, config=chat.agent.config, parent_session=parent.session_id,
               parent_call=started_by, description=description)
    parent.append("subagent", call=started_by, session=log.session_id, description=description)
    return log
