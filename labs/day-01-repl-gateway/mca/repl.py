"""The interactive loop: ``you > `` prompts, one turn per line, ``/exit`` to leave.

Leaving must be easy and waiting must be safe: an empty line sends nothing, Ctrl-C
at the prompt gives a fresh prompt (it does not end the program), and Ctrl-D (the
end of input) leaves as cleanly as ``/exit``.
"""

from __future__ import annotations

import sys
from typing import Callable

from .chat import Chat
from .gateway.base import GatewayError


def run_repl(chat: Chat, read_line: Callable[[str], str] | None = None) -> int:
    """Read lines until /exit or end of input; each line is a turn (or a command)."""
    read_line = read_line or input  # looked up now, so tests can replace input()
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        # TODO(E5): an empty line, Ctrl-C at the prompt, Ctrl-D (end of input).
        line = read_line("you > ").strip()
        if line in ("/exit", "/quit"):
            end_prompt_line()
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:  # one line, and the conversation goes on
            print(f"mca: {exc}", flush=True)
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
