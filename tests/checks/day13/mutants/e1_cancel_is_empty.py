"""run_subagent() reports the caps but takes a Ctrl-C for an empty answer ("the user stopped it:
nothing to report"): the parent is not told the task was cancelled."""
TARGET = "mca/agent/subagent.py"
FAILS = ('cancel-child-keeps-parent',)


def run_subagent(chat, call_id, args):
    description = " ".join(str(args["description"]).split()) or "side task"
    prompt = str(args["prompt"])
    child = start_child(chat, call_id, description)
    try:
        history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT}]  # its own start: nothing of the parent's
        text = run_turn(history, prompt, gateway=child.gateway, tools=child.tools, approver=child.approver,
                        emit=child.emit, max_rounds=child.max_rounds)  # run_turn: Ctrl-C ends this turn only
        if child.stopped() and "cancelled" not in child.stopped():
            raise ToolError(f'the side task "{description}" {child.stopped()}{child.last_words()}')
        answer, cut = truncate(text, ANSWER_CAP)  # the answer, and nothing else of the child's work
    finally:
        child.close()
    bill = {"call": call_id, "session": child.log.session_id, "rounds": child.rounds, "spent": child.spent,
            "chars": len(answer), "tokens": estimate_tokens(answer), "truncated": cut}
    chat.screen.status(f'injected: answer of task "{description}" (subagent {child.log.session_id}, '
                       f"{plural(child.rounds, 'round')}) {bill['chars']} chars ≈ {bill['tokens']} tokens"
                       + (f" (cut from {len(text)} chars)" if cut else ""))
    chat.log.append("task_answer", **bill)
    return answer
