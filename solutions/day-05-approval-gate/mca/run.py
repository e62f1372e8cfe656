"""What ``python -m mca`` runs once cli.py has understood its arguments: one turn, or the REPL.

cli.py imports this module only after parsing, so ``--help`` and a mistyped option never
wait for the layers below to load.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .chat import Agent, Chat
from .gateway import describe, gateway_config, make_gateway
from .repl import run_repl
from .screen import Screen
from .tools.approval import Approver, load_rules, terminal_asker
from .tools.registry import default_tools


class UserError(Exception):
    """Something the user can fix; the message says what. Exit status 1."""


def run(args: argparse.Namespace) -> int:
    """Run what the command line asked for; a problem the user can fix is one line on
    stderr and an exit status, never a traceback."""
    try:
        return run_agent(args)
    except UserError as exc:
        print(f"mca: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def workdir_of(args: argparse.Namespace) -> Path:
    """--workdir, else $MCA_WORKDIR, else ./workspace if there is one, else the current dir."""
    chosen = args.workdir or os.environ.get("MCA_WORKDIR")
    if chosen is None:
        chosen = "workspace" if Path("workspace").is_dir() else "."
    workdir = Path(chosen)
    if not workdir.is_dir():
        raise UserError(f"workdir {workdir} is not a directory; pass --workdir DIR")
    return workdir.resolve()


def run_agent(args: argparse.Namespace) -> int:
    prompt = " ".join(args.prompt)
    workdir = workdir_of(args)
    tools = default_tools(workdir)
    try:
        rules = load_rules(workdir, args.rule)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    approver = Approver.for_tools(tools, rules, yes=args.yes, ask=terminal_asker(), workdir=workdir)
    config = gateway_config()
    agent = Agent(make_gateway(config), tools, approver)
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
