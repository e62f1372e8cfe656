"""The side tasks of a session share one budget: each child starts with what the session's
earlier children spent, so a later one is refused after spending little of its own ("its own
budget" in the contract; a hold-out class)."""
TARGET = "mca/agent/subagent.py"
FAILS = ('child-capped',)


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
        chat.task_spent = child.spent  # the session's side tasks draw on one budget
        child.close()
    bill = {"call": call_id, "rounds": child.rounds, "spent": child.spent, "chars": len(answer),
            "tokens": estimate_tokens(answer), "truncated": cut}
    chat.screen.status(f'injected: answer of task "{description}" (subagent {child.log.session_id}, '
                       f"{plural(child.rounds, 'round')}) {bill['chars']} chars ≈ {bill['tokens']} tokens"
                       + (f" (cut from {len(text)} chars)" if cut else ""))
    chat.log.append("task_answer", **bill)
    return answer


def start_child(chat: Chat, call_id: str, description: str) -> Child:
    """The child's log (linked), its tools and its limits; one line on the screen says so."""
    agent = chat.agent
    tools = child_tools(agent.tools, agent.approver)
    log = open_child_log(chat, call_id, description)
    child = Child(log, tools, ChildGate(agent.approver, tools), agent.gateway, chat.screen.status,
                  max_rounds=setting("MCA_TASK_ROUNDS", TASK_ROUNDS), budget=setting("MCA_TASK_BUDGET", TASK_BUDGET),
                  spent=getattr(chat, "task_spent", 0))
    chat.screen.status(f'task "{description}": subagent {log.session_id} with '
                       f"{', '.join(tools.names()) or 'no tools'} (at most {plural(child.max_rounds, 'round')}, "
                       f"{child.budget} tokens)")
    return child
