"""What ``python -m mca`` runs once cli.py has understood its arguments: one turn, or the REPL.

cli.py imports this module only after parsing, so ``--help`` and a mistyped option never
wait for the layers below to load.
"""

from __future__ import annotations

import argparse
import sys

from .chat import Agent, Chat
from .gateway import describe, gateway_config, make_gateway
from .repl import run_repl
from .screen import Screen


def run(args: argparse.Namespace) -> int:
    """Run what the command line asked for; a problem the user can fix is one line on
    stderr and an exit status, never a traceback."""
    try:
        return run_agent(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def run_agent(args: argparse.Namespace) -> int:
    prompt = " ".join(args.prompt)
    config = gateway_config()
    agent = Agent(make_gateway(config))
    screen = Screen()
    screen.status(describe(config))
    chat = Chat(agent, screen)
    if not prompt:
        return run_repl(chat)
    try:
        chat.ask(prompt)
    finally:
        chat.close()
    return 1 if screen.errors else 0
