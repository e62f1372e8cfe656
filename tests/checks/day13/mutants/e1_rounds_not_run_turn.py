"""run_subagent() puts the prompt into the history itself and runs the loop's rounds() ("run_turn
would add the prompt again"): day 6's catch of Ctrl-C is left out, and it cancels the parent's turn."""
TARGET = "mca/agent/subagent.py"
FAILS = ('cancel-child-keeps-parent',)

import time

from .loop import RETRIES, add_message, rounds


def run_subagent(chat, call_id, args):
    description = " ".join(str(args["description"]).split()) or "side task"
    prompt = str(args["prompt"])
    child = start_child(chat, call_id, description)
    try:
        history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT}]  # its own start: nothing of the parent's
        add_message(history, {"role": "user", "content": prompt}, child.emit)
        text = rounds(history, child.gateway, child.tools, child.approver, child.emit, child.max_rounds, RETRIES,
                      time.sleep)
        if child.stopped():  # the round cap, the budget, Ctrl-C, a failed request: there is no answer
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
