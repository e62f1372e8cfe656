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
import os
import re
import shlex
import sys
from pathlib import Path

from .chat import Agent, Chat
from .commands import UserError, as_json, fork_session, inspect_session, not_implemented
from .gateway import describe, gateway_config, make_gateway
from .repl import format_session, run_repl
from .screen import Screen
from .session import SessionError
from .session.resume import NoSuchSession, ResumeError, list_sessions, pick_session, session_ids
from .tools.approval import Approver, load_rules, terminal_asker
from .tools.registry import default_tools

SUBCOMMANDS = ("log", "fork", "demo")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        subcommand = subcommand_argv(argv)
        if subcommand is not None:
            return run_subcommand(subcommand)
        return run_agent(agent_parser().parse_args(argv))
    except NotImplementedError as exc:
        # A student's TODO stub: one line that says so, never a traceback.
        print(not_implemented(exc), file=sys.stderr)
        return 1
    except NoSuchSession as exc:  # a piece of an id that names no session, or several: bad usage
        print(f"mca: {exc}", file=sys.stderr)
        return 2
    except (UserError, ResumeError, SessionError) as exc:
        print(f"mca: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


# --- options shared by every command -----------------------------------------------

def sessions_dir_of(args: argparse.Namespace) -> Path:
    """--sessions-dir, else $MCA_SESSIONS_DIR, else ./.sessions."""
    return Path(args.sessions_dir or os.environ.get("MCA_SESSIONS_DIR") or ".sessions")


def workdir_of(args: argparse.Namespace) -> Path:
    """--workdir, else $MCA_WORKDIR, else ./workspace if there is one, else the current dir."""
    chosen = args.workdir or os.environ.get("MCA_WORKDIR")
    if chosen is None:
        chosen = "workspace" if Path("workspace").is_dir() else "."
    workdir = Path(chosen)
    if not workdir.is_dir():
        raise UserError(f"workdir {workdir} is not a directory; pass --workdir DIR")
    return workdir.resolve()


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


def resume_target(args: argparse.Namespace, sessions_dir: Path) -> tuple[str | None, str]:
    """The session --resume names (None: the latest) and the prompt, refusing a piece
    of an id that names no session or several (NoSuchSession, exit status 2) before
    anything is created."""
    ids = session_ids(sessions_dir)
    piece, prompt = split_resume(args.resume, args.prompt, ids)
    if piece is None:
        return None, prompt
    try:
        return pick_session(sessions_dir, piece), prompt
    except NoSuchSession as exc:
        typed = " ".join([piece, *args.prompt])
        instead = (f"To send {typed!r} to the latest session as a prompt: python -m mca --resume -- "
                   f"{shlex.quote(typed)}" if ids else
                   f"To start a session with {typed!r} as the prompt: python -m mca -- {shlex.quote(typed)}")
        raise NoSuchSession(f"{exc}. {instead}", exc.matches) from None


def run_agent(args: argparse.Namespace) -> int:
    sessions_dir = sessions_dir_of(args)
    if args.list:
        return print_sessions(sessions_dir)
    resuming = args.resume is not None
    session_id, prompt = resume_target(args, sessions_dir) if resuming else (None, " ".join(args.prompt))
    workdir = workdir_of(args)
    tools = default_tools(workdir)
    try:
        rules = load_rules(workdir, args.rule)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    approver = Approver.for_tools(tools, rules, yes=args.yes, ask=terminal_asker(), workdir=workdir)
    config = gateway_config()
    agent = Agent(make_gateway(config), tools, approver, config)
    screen = Screen()
    screen.status(describe(config))
    chat = Chat(sessions_dir, agent, screen)
    if resuming:
        chat.resume(session_id)  # refuses unknown or invalid ids before anything is created
    if not prompt:
        return run_repl(chat)
    try:
        chat.ask(prompt)
    finally:
        chat.close()
    return 1 if screen.errors else 0


def print_sessions(sessions_dir: Path) -> int:
    sessions = list_sessions(sessions_dir)
    if not sessions:
        print(f"no sessions in {sessions_dir}")
    for info in sessions:
        print(format_session(info))
    return 0


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


def run_subcommand(argv: list[str]) -> int:
    args = subcommand_parser().parse_args(argv)
    if args.command == "demo":
        from .demo import run_crash_demo

        return run_crash_demo()
    sessions_dir = sessions_dir_of(args)
    if args.command == "fork":
        print(fork_session(sessions_dir, args.session_id, args.at_seq))
        return 0
    report = inspect_session(sessions_dir, args.session_id)
    print(as_json(report) if args.json else render_inspection(report))
    return 0


def render_inspection(report: dict) -> str:
    """The readable form of ``log inspect``; unknown values show as '?'."""
    def value(key: str) -> str:
        return "?" if report[key] is None else str(report[key])

    points = report["fork_points"]
    stopped = next((note for note in report["notes"] if note.startswith("log stopped")), None)
    lines = [
        f"session {report['session']}",
        f"  events: {value('events')} (last seq {value('last_seq')})",
        "  log: " + ("complete" if report["stopped_at"] is None and report["events"] is not None
                     else stopped.removeprefix("log ") if stopped
                     else f"stopped at line {value('stopped_at')}: {value('reason')}"),
        f"  messages replayed: {value('replayed')}, skipped: {value('skipped')}, "
        f"token estimate: {value('token_estimate')}",
        "  fork points: " + ("?" if points is None else ", ".join(map(str, points)) or "none"),
    ]
    lines += [f"  note: {note}" for note in report["notes"] if not note.startswith("log stopped")]
    return "\n".join(lines)
