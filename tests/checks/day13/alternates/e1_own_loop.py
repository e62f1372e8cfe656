"""run_subagent() runs the loop's rounds() itself: it adds the prompt, catches Ctrl-C as day 6
does (every call answered, the cancel logged), asks the child why it stopped, and cuts a long
answer to its head with a note of its own."""
TARGET = "mca/agent/subagent.py"
FAILS = ()

import time

from .loop import RETRIES, add_message, close_dangling_calls, rounds


def run_subagent(chat, call_id, args):
    description = " ".join(str(args.get("description", "")).split()) or "side task"
    child = start_child(chat, call_id, description)
    history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT}]
    try:
        add_message(history, {"role": "user", "content": str(args["prompt"])}, child.emit)
        try:
            text = rounds(history, child.gateway, child.tools, child.approver, child.emit, child.max_rounds,
                          RETRIES, time.sleep)
        except KeyboardInterrupt:
            close_dangling_calls(history, child.emit)
            child.emit(ErrorOccurred("cancelled by the user", "loop"))
            raise ToolError(f"side task {description!r} cancelled with Ctrl-C; it gave no answer") from None
        why = child.stopped()
        if why:
            raise ToolError(f"side task {description!r} {why}")
    finally:
        child.close()
    if len(text) > ANSWER_CAP:
        note = "\n[answer cut: the first {kept} of " + str(len(text)) + " characters]"
        kept = ANSWER_CAP - len(note.format(kept=ANSWER_CAP))
        answer, cut = text[:kept] + note.format(kept=kept), True
    else:
        answer, cut = text, False
    tokens = estimate_tokens(answer)
    chat.screen.status(f"injected: task {description} answer, {len(answer)} chars ≈ {tokens} tokens")
    chat.log.append("task_answer", call=call_id, chars=len(answer), tokens=tokens, truncated=cut)
    return answer
