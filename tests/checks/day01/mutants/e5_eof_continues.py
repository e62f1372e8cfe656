"""E5: handles the end of input like Ctrl-C: print a newline and `continue`.

At the end of input every read fails again at once, so the REPL prints prompts
forever and never exits - the grader's time limit ends it.
"""
TARGET = "mca/repl.py"
FAILS = ("repl-edges",)


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            continue
        if not line:
            continue
        if line in ("/exit", "/quit"):
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:
            print(f"mca: {exc}", flush=True)
    chat.close()
    return 0
