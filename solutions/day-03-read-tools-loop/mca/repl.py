"""The interactive loop: ``you > `` prompts, one turn per line, ``/exit`` to leave.

Leaving must be easy and waiting must be safe: an empty line sends nothing, Ctrl-C
at the prompt gives a fresh prompt (it does not end the program), and Ctrl-D (the
end of input) leaves as cleanly as ``/exit``.
"""

from __future__ import annotations

import sys
from typing import Callable

from .chat import Chat


def run_repl(chat: Chat, read_line: Callable[[str], str] | None = None) -> int:
    """Read lines until /exit or end of input; each line is a turn (or a command)."""
    read_line = read_line or input  # looked up now, so tests can replace input()
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except EOFError:  # Ctrl-D, or the end of piped input: a normal way to leave
            print()
            break
        except KeyboardInterrupt:  # Ctrl-C at the prompt: a fresh line, not the end of the program
            print()
            continue
        if not line:
            continue  # nothing to send
        if line in ("/exit", "/quit"):
            end_prompt_line()
            break
        chat.ask(line)
    chat.close()
    return 0


def end_prompt_line() -> None:
    """Leaving on ``/exit`` with piped input: the line was not echoed, so the prompt's line is
    still open; end it (as the end of input does), or the shell's prompt is glued to ``you > ``.
    On a terminal the Enter that sent ``/exit`` has ended it already."""
    try:
        piped = sys.stdin is None or not sys.stdin.isatty()
    except ValueError:  # stdin closed
        piped = True
    if piped:
        print()
