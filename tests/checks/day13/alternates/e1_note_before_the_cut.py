"""A longer answer is cut to its start, the cut declared in a note before it (how long the
answer was), the whole at most ANSWER_CAP characters (a hold-out variant)."""
TARGET = "mca/agent/subagent.py"
FAILS = ()


def run_subagent(chat: Chat, call_id: str, args: dict) -> str:
    """Run one side task in a child agent; return what the parent's model reads as the call's
    result: the child's final answer, capped and declared, and billed. A child that gave no
    answer raises ToolError saying why (the parent reads ``error: ...``)."""
    description = " ".join(str(args["description"]).split()) or "side task"
    prompt = str(args["prompt"])
    child = start_child(chat, call_id, description)
    try:
        history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT}]  # its own start: nothing of the parent's
        text = run_turn(history, prompt, gateway=child.gateway, tools=child.tools, approver=child.approver,
                        emit=child.emit, max_rounds=child.max_rounds)  # run_turn: Ctrl-C ends this turn only
        if child.stopped():  # the round cap, the budget, Ctrl-C, a failed request: there is no answer
            raise ToolError(f'the side task "{description}" {child.stopped()}{child.last_words()}')
        answer, cut = text, False
        if len(text) > ANSWER_CAP:  # the note first, then as much of the start as fits
            note = f"[the subagent's answer was {len(text)} characters; it is cut to its first part]\n"
            answer, cut = note + text[:ANSWER_CAP - len(note)], True
    finally:
        child.close()
    bill = {"call": call_id, "rounds": child.rounds, "spent": child.spent, "chars": len(answer),
            "tokens": estimate_tokens(answer), "truncated": cut}
    chat.screen.status(f'injected: answer of task "{description}" (subagent {child.log.session_id}, '
                       f"{plural(child.rounds, 'round')}) {bill['chars']} chars ≈ {bill['tokens']} tokens"
                       + (f" (cut from {len(text)} chars)" if cut else ""))
    chat.log.append("task_answer", **bill)
    return answer
