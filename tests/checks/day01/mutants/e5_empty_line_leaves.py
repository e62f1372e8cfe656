"""E5: ends the REPL on an empty line, as some shells' "press Enter to quit" prompts do.

Nothing is sent for it, but one stray Enter ends the conversation.
"""
TARGET = "mca/repl.py"
FAILS = ("repl-edges",)


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except EOFError:
            print()
            break
        except KeyboardInterrupt:
            print()
            continue
        if not line or line in ("/exit", "/quit"):
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:
            print(f"mca: {exc}", flush=True)
    chat.close()
    return 0
