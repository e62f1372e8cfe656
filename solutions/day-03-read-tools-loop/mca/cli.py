"""The command line: ``python -m mca``.

    python -m mca [PROMPT]      one turn, then exit (without PROMPT: the REPL)
    --workdir DIR               the project the tools work in (default: ./workspace, else .)

The model is the mock unless MCA_API_KEY is set (and MOCK is not 1); MCA_BASE_URL and
MCA_MODEL name another OpenAI-compatible endpoint. Exit status: 0 ok, 1 the model
could not be reached (the message says why), 2 bad usage, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    """Understand the command line, then run it (mca/run.py).

    The agent's layers are imported only once the arguments are understood: ``--help``
    and a mistyped option are answered at once, without loading code they do not use.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    args = agent_parser().parse_args(argv)
    from .run import run

    return run(args)


# --- the agent: one turn or the REPL -----------------------------------------------

def agent_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mca", description="mca, a small coding agent.")
    parser.add_argument("prompt", nargs="*", help="a request: run one turn and exit (none: start the REPL)")
    parser.add_argument("--workdir", metavar="DIR", help="the project the tools work in")
    return parser
