"""E5: skips a line only when it is exactly empty, and strips it afterwards.

Pressing Enter sends nothing, but a line of spaces or a tab passes the test and is
sent to the model as an empty message.
"""
TARGET = "mca/repl.py"
FAILS = ("repl-edges",)


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            raw = read_line("you > ")
        except EOFError:
            print()
            break
        except KeyboardInterrupt:
            print()
            continue
        if raw == "":
            continue
        line = raw.strip()
        if line in ("/exit", "/quit"):
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:
            print(f"mca: {exc}", flush=True)
    chat.close()
    return 0
