"""run_subagent() tells the child its task's description in a second system message and hands
back its answer without white space at the ends (billed as sent)."""
TARGET = "mca/agent/subagent.py"
FAILS = ()


def run_subagent(chat, call_id, args):
    description = " ".join(str(args["description"]).split()) or "side task"
    child = start_child(chat, call_id, description)
    try:
        history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT},
                   {"role": "system", "content": f"Your task, in a few words: {description}"}]
        text = run_turn(history, str(args["prompt"]), gateway=child.gateway, tools=child.tools,
                        approver=child.approver, emit=child.emit, max_rounds=child.max_rounds).strip()
        stopped = child.stopped()
    finally:
        child.close()
    if stopped:
        raise ToolError(f"{description}: {stopped}")
    answer, cut = truncate(text, ANSWER_CAP)
    chars, tokens = len(answer), estimate_tokens(answer)
    chat.screen.status(f"injected: {description} (answer of {child.log.session_id}) {chars} chars ≈ {tokens} tokens")
    chat.log.append("task_answer", call=call_id, chars=chars, tokens=tokens, truncated=cut)
    return answer
