"""The command line: ``python -m mca``.

    python -m mca [PROMPT]      one turn, then exit (without PROMPT: the REPL)
    --workdir DIR               the project the tools work in (default: ./workspace, else .)
    --yes                       approve every call a rule would ask about (never a denied one)
    --rule "ACTION TOOL [PAT]"  one more approval rule (repeatable; see tools/approval.py)

The model is the mock unless MCA_API_KEY is set (and MOCK is not 1); MCA_BASE_URL and
MCA_MODEL name another OpenAI-compatible endpoint. Exit status: 0 ok, 1 the model
could not be reached (the message says why), 2 bad usage, 130 interrupted.
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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return run_agent(agent_parser().parse_args(argv))
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


# --- the agent: one turn or the REPL -----------------------------------------------

def agent_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mca", description="mca, a small coding agent.")
    parser.add_argument("prompt", nargs="*", help="a request: run one turn and exit (none: start the REPL)")
    parser.add_argument("--workdir", metavar="DIR", help="the project the tools work in")
    parser.add_argument("--yes", action="store_true", help="approve every tool call that would ask")
    parser.add_argument("--rule", action="append", default=[], metavar='"ACTION TOOL [PATTERN]"',
                        help="one more approval rule, e.g. \"allow run_command python -m unittest*\"")
    return parser


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
