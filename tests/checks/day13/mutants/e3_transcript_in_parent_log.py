"""The child's whole transcript is also written into the parent's log, as one event of a type
replay skips: a resumed parent sends none of it, but the parent's log holds every file the
child read and every call it made (a hold-out class)."""
TARGET = "mca/agent/subagent.py"
FAILS = ('lineage-logged',)


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
        answer, cut = truncate(text, ANSWER_CAP)  # the answer, and nothing else of the child's work
    finally:
        child.close()
        # the whole side task beside the answer, "so the session shows what the subagent did"
        chat.log.append("subagent_transcript", call=call_id, messages=history[1:])
    bill = {"call": call_id, "rounds": child.rounds, "spent": child.spent, "chars": len(answer),
            "tokens": estimate_tokens(answer), "truncated": cut}
    chat.screen.status(f'injected: answer of task "{description}" (subagent {child.log.session_id}, '
                       f"{plural(child.rounds, 'round')}) {bill['chars']} chars ≈ {bill['tokens']} tokens"
                       + (f" (cut from {len(text)} chars)" if cut else ""))
    chat.log.append("task_answer", **bill)
    return answer
