"""E5: wraps the read in `except Exception: break`, meant to cover "whatever input() raises".

EOFError is an Exception, so Ctrl-D works; KeyboardInterrupt is not (it derives from
BaseException on purpose), so Ctrl-C at the prompt still ends the program.
"""
TARGET = "mca/repl.py"
FAILS = ("repl-edges",)


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except Exception:
            print()
            break
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
