"""E3: repairs the history and goes back to the prompt without a word: the user cannot tell a cancel from a turn that ended."""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl",)


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        close_dangling_calls(history, emit)
        return ""
