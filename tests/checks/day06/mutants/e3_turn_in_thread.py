"""E3: the turn runs on a worker thread, so the main thread only waits and is free to take
Ctrl-C ("a blocking tool call cannot swallow the interrupt that way"). The cancel closes the
dangling calls and brings the prompt back, but the worker and the command it is running
are left behind: the command goes on in its own session.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl",)

import threading


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    box = {}

    def work():
        try:
            box["text"] = rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        close_dangling_calls(history, emit)
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
    if "error" in box:
        raise box["error"]
    return box.get("text", "")
