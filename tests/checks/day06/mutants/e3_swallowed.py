"""E3: catches Ctrl-C and says so, but leaves the history as it was: the running call and the unstarted one have no result."""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl", "no-dangling-call")


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
