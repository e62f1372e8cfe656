"""The command line: ``python -m mca``.

    python -m mca [PROMPT]      one turn, then exit (without PROMPT: the REPL)

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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return run_agent(agent_parser().parse_args(argv))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


# --- the agent: one turn or the REPL -----------------------------------------------

def agent_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mca", description="mca, a small coding agent.")
    parser.add_argument("prompt", nargs="*", help="a request: run one turn and exit (none: start the REPL)")
    return parser


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
