"""What ``python -m mca`` runs once cli.py has understood its arguments: one turn, the
REPL, or a subcommand (``log inspect``, ``fork``, ``demo crash``).

cli.py imports this module only after parsing, so ``--help`` and a mistyped option never
wait for the model, the tools and the session log to load.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from .chat import Agent, Chat
from .cli import split_resume
from .commands import UserError, as_json, fork_session, inspect_session, not_implemented
from .gateway import describe, gateway_config, make_gateway
from .repl import format_session, run_repl
from .screen import Screen
from .memory import Memories
from .plan import TodoList
from .agent.subagent import Subagents
from .snapshots import SnapshotStore, snapshot_writes
from .session import SessionError
from .session.resume import NoSuchSession, ResumeError, list_sessions, pick_session, session_ids
from .tools.approval import Approver, load_rules, terminal_asker
from .tools.registry import default_tools


def run(args: argparse.Namespace) -> int:
    """Run what the command line asked for; a problem the user can fix is one line on
    stderr and an exit status, never a traceback."""
    try:
        if "command" in vars(args):  # log, fork or demo (cli.subcommand_parser)
            return run_subcommand(args)
        return run_agent(args)
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
    memories = Memories.open(workdir)
    plan = TodoList()  # the model's plan for this session: the todo tool and the loop share it
    subagents = Subagents()  # the task tool's runner: it is told below which conversation it serves
    tools = default_tools(workdir, memories=memories, plan=plan, subagents=subagents)
    snapshots = SnapshotStore(workdir)  # every write tool keeps the old content of its file here first
    snapshot_writes(tools, workdir, snapshots)
    try:
        rules = load_rules(workdir, args.rule)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    approver = Approver.for_tools(tools, rules, yes=args.yes, ask=terminal_asker(), workdir=workdir)
    config = gateway_config()
    agent = Agent(make_gateway(config), tools, approver, config, workdir, memories, plan)
    screen = Screen()
    screen.status(describe(config))
    chat = Chat(sessions_dir, agent, screen)
    subagents.chat = chat  # a side task runs for this conversation: its session, its model, its rules
    chat.snapshots = snapshots  # pointed at each session the chat starts or resumes
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



def run_subcommand(args: argparse.Namespace) -> int:
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
