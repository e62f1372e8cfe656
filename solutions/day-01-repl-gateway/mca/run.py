"""What ``python -m mca`` runs once cli.py has understood its arguments: one turn, or the REPL.

cli.py imports this module only after parsing, so ``--help`` and a mistyped option never
wait for the layers below to load.
"""

from __future__ import annotations

import argparse
import sys

from .chat import Chat
from .gateway import describe, gateway_config, make_gateway
from .gateway.base import GatewayError
from .repl import run_repl


def run(args: argparse.Namespace) -> int:
    """Run what the command line asked for; a problem the user can fix is one line on
    stderr and an exit status, never a traceback."""
    try:
        return run_agent(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def run_agent(args: argparse.Namespace) -> int:
    config = gateway_config()
    print(describe(config), file=sys.stderr, flush=True)
    chat = Chat(make_gateway(config))
    prompt = " ".join(args.prompt)
    if not prompt:
        return run_repl(chat)
    try:
        print(chat.ask(prompt), flush=True)
    except GatewayError as exc:  # one line that names what went wrong, never a traceback
        print(f"mca: {exc}", file=sys.stderr)
        return 1
    return 0
