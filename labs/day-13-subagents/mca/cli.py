"""The command line: ``python -m mca``.

    python -m mca [PROMPT]                 one turn (or, without PROMPT, the REPL)
    python -m mca --resume [ID] [PROMPT]   continue the latest session, or ID
                                           (a piece of one will do: its last 4 hex digits)
    python -m mca --resume -- PROMPT       the latest session, PROMPT even if it looks like an id
    python -m mca --list                   sessions, newest first
    python -m mca log inspect ID [--json]  what a session's log holds
    python -m mca fork ID N                branch a session at event N; prints the new id
    python -m mca demo crash               why an append-only log survives crashes

Exit status: 0 ok, 1 a problem the user can fix (the message says how), 2 bad usage.
"""

from __future__ import annotations

import argparse
import re
import sys

SUBCOMMANDS = ("log", "fork", "demo")


def main(argv: list[str] | None = None) -> int:
    """Understand the command line, then run it (mca/run.py).

    The agent's layers are imported only once the arguments are understood: ``--help``
    and a mistyped option are answered at once, without loading code they do not use.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    subcommand = subcommand_argv(argv)
    if subcommand is not None:
        args = subcommand_parser().parse_args(subcommand)
    else:
        args = agent_parser().parse_args(argv)
    from .run import run

    return run(args)


def add_sessions_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sessions-dir", metavar="DIR",
                        help="where session logs live (default: $MCA_SESSIONS_DIR, else ./.sessions)")


# --- the agent: one turn or the REPL -----------------------------------------------

def agent_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mca", description="mca, a small coding agent.",
        epilog="Other commands: log inspect ID [--json], fork ID N, demo crash.")
    parser.add_argument("prompt", nargs="*", help="a request: run one turn and exit (none: start the REPL)")
    parser.add_argument("--resume", nargs="?", const="", metavar="ID",
                        help="continue the latest session, or ID; a piece of an id that names one session "
                             "will do (its last 4 hex digits, a prefix). A prompt follows: --resume ID \"fix it\"; "
                             "--resume \"fix it\" continues the latest; a prompt that looks like an id goes "
                             "after --: --resume -- 5aa3")
    add_sessions_dir(parser)
    parser.add_argument("--workdir", metavar="DIR", help="the project the tools work in")
    parser.add_argument("--yes", action="store_true", help="approve every tool call that would ask")
    parser.add_argument("--rule", action="append", default=[], metavar='"ACTION TOOL [PATTERN]"',
                        help="one more approval rule, e.g. \"allow run_command python -m unittest*\"")
    parser.add_argument("--list", action="store_true", help="list sessions, newest first")
    return parser


def split_resume(resume: str | None, prompt: list[str], ids: list[str] | tuple[str, ...] = ()
                 ) -> tuple[str | None, str]:
    """Tell ``--resume ID PROMPT`` from ``--resume PROMPT`` (argparse cannot).

    ``ids`` are the sessions there are. With two values the first is the id. A single
    value is the id if it looks like an id or a piece of one: ``s-...``, a path, four
    lowercase hex digits (the random end of an id), or the start or end of a session's
    id (of exactly one, or of several if it is 4 characters or more). Anything else, and
    whatever follows ``--resume --``, is a prompt for the latest session. The id is
    resolved later (pick_session): a piece that names no session, or several, is refused.
    """
    words = " ".join(prompt)
    if not resume or prompt:
        return resume or None, words
    return (resume, "") if looks_like_id(resume, ids) else (None, resume)


HEX_SUFFIX = re.compile(r"[0-9a-f]{4}")


def looks_like_id(text: str, ids: list[str] | tuple[str, ...] = ()) -> bool:
    """Would a person who typed ``text`` after --resume have meant a session?"""
    if not text or any(char.isspace() for char in text):
        return False
    if text.startswith("s-") or "/" in text or "\\" in text or HEX_SUFFIX.fullmatch(text):
        return True
    named = [i for i in ids if i.startswith(text) or i.endswith(text)]
    return len(named) == 1 or (len(named) > 1 and len(text) >= 4)


# --- subcommands: log inspect, fork, demo ------------------------------------------

def subcommand_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mca")
    commands = parser.add_subparsers(dest="command", required=True)
    log = commands.add_parser("log", help="look at a session's log")
    log_commands = log.add_subparsers(dest="log_command", required=True)
    inspect = log_commands.add_parser("inspect", help="events, damage, replay counts, fork points")
    inspect.add_argument("session_id", metavar="ID")
    inspect.add_argument("--json", action="store_true", help="one JSON object, for scripts")
    add_sessions_dir(inspect)
    fork = commands.add_parser("fork", help="branch a session at a fork point; prints the new id")
    fork.add_argument("session_id", metavar="ID")
    fork.add_argument("at_seq", metavar="N", type=int)
    add_sessions_dir(fork)
    demo = commands.add_parser("demo", help="demonstrations that need no API key")
    demo.add_argument("name", choices=["crash"])
    add_sessions_dir(demo)  # accepted for symmetry; the demo always works in a temp dir
    return parser


def subcommand_argv(argv: list[str]) -> list[str] | None:
    """The arguments for a subcommand, or None when this is a prompt or the REPL.

    A subcommand is recognised by its first word; a leading ``--sessions-dir DIR``
    is allowed before it (``python -m mca --sessions-dir d log inspect ID``) and moved
    after it, so that a prompt that merely contains the word "log" is never taken
    for the command.
    """
    start = 0
    while start < len(argv) and argv[start].startswith("--sessions-dir"):
        start += 1 if "=" in argv[start] else 2
    if start < len(argv) and argv[start] in SUBCOMMANDS:
        return argv[start:] + argv[:start]
    return None
