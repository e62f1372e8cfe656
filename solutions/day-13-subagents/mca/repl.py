"""The interactive loop: ``you > `` prompts, turns, and a few slash commands.

Slash commands look at the session without talking to the model: ``/log`` shows
the events as recorded, ``/fork`` lists the clean points to branch from and
``/fork N`` branches and switches to the new session, leaving the old one as it was.
"""

from __future__ import annotations

import sys
from typing import Callable

from .chat import Chat
from .commands import UserError, attempt, describe_event, fork_menu, fork_session, not_implemented
from .session import SessionError, estimate_tokens, fork_points, read_events, replay, session_path
from .session.log import stop_note
from .session.resume import ResumeError, list_sessions

from .plan import plan_lines

HELP = """commands:
  /log        the events of this session, one per line, then counts
  /fork       the points this session can be forked at
  /fork N     fork at event N and continue in the new session
  /sessions   the sessions in the sessions dir, newest first
  /instructions  the project instructions in force in this session
  /memory     the memories in force, numbered, newest first
  /forget N   forget memory N of /memory (from the next session on)
  /plan       the model's plan (its todo list) in this session
  /compact    summarise the older rounds now (the last rounds are kept as they are)
  /exit       leave (Ctrl+D works too)
  /help       this text"""


def run_repl(chat: Chat, read_line: Callable[[str], str] | None = None) -> int:
    """Read lines until /exit or end of input; each line is a turn (or a command)."""
    read_line = read_line or input  # looked up now, so tests can replace input()
    print("mca: type a request, or /help for commands", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except EOFError:  # Ctrl-D, or the end of piped input: a normal way to leave
            print()
            break
        except KeyboardInterrupt:  # Ctrl-C at the prompt: a fresh line, not the end of the program
            print()
            continue
        if not line:
            continue  # nothing to send
        if line in ("/exit", "/quit"):
            end_prompt_line()
            break
        if line.startswith("/"):
            run_command(chat, line)
        else:
            chat.ask(line)
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


def run_command(chat: Chat, line: str) -> None:
    """Run one slash command; its problems are printed, never raised."""
    name, _, rest = line.partition(" ")
    handlers = {"/log": show_log, "/fork": fork_command, "/sessions": show_sessions,
                "/instructions": show_instructions, "/help": lambda chat, rest: print(HELP)}
    handlers.update({"/memory": show_memory, "/forget": forget_command})
    handlers["/plan"] = show_plan
    handlers["/compact"] = compact_command
    handler = handlers.get(name)
    if handler is None:
        print(f"unknown command {name}; /help lists the commands")
        return
    try:
        handler(chat, rest.strip())
    except NotImplementedError as exc:
        print(not_implemented(exc))
    except (UserError, SessionError, ResumeError) as exc:
        print(exc)


def current_events(chat: Chat):
    if chat.session_id is None:
        raise UserError("no session yet: send a request first")
    return read_events(session_path(chat.sessions_dir, chat.session_id))


def show_log(chat: Chat, _rest: str) -> None:
    """One line per event, then the counts a resume would see."""
    result = current_events(chat)
    print(f"session {chat.session_id}")
    for event in result.events:
        print(f"{event.seq:>4}  {event.type:<9} {describe_event(event)}")
    if result.damaged:
        print(stop_note(session_path(chat.sessions_dir, chat.session_id), result))
    notes: list[str] = []
    rebuilt = attempt(replay, result.events, notes=notes)
    if rebuilt is None:
        print(f"events: {len(result.events)}")
    else:
        print(f"events: {len(result.events)}, messages replayed: {rebuilt.replayed}, "
              f"skipped: {rebuilt.skipped}, token estimate: {estimate_tokens(rebuilt.messages)}")
    for note in notes:
        print(note)


def fork_command(chat: Chat, rest: str) -> None:
    """``/fork`` lists the fork points; ``/fork N`` forks there and switches to the fork."""
    if not rest:
        result = current_events(chat)
        points = fork_points(result.events)
        print("\n".join(fork_menu(result.events, points)) or "no fork points yet")
        return
    if not rest.isdigit():
        raise UserError("usage: /fork N, where N is one of the numbers /fork lists")
    if chat.session_id is None:
        raise UserError("no session yet: send a request first")
    parent = chat.session_id
    new_id = fork_session(chat.sessions_dir, parent, int(rest))
    chat.resume(new_id)
    print(f"forked {parent} at {rest}; now in {new_id} ({parent} is left as it was)")


def show_sessions(chat: Chat, _rest: str) -> None:
    sessions = list_sessions(chat.sessions_dir)
    if not sessions:
        print(f"no sessions in {chat.sessions_dir}")
    for info in sessions:
        print(format_session(info, current=info.session_id == chat.session_id))


def format_session(info, current: bool = False) -> str:
    """``* s-...  5 messages, 8 events  (damaged)``: the star marks the open session."""
    messages = "?" if info.messages is None else info.messages
    damaged = "  (damaged)" if info.damaged else ""
    return f"{'*' if current else ' '} {info.session_id}  {messages} messages, {info.events} events{damaged}"


def show_instructions(chat: Chat, _rest: str) -> None:
    """What the session sends as project instructions: the files, what was dropped, the text."""
    instructions = chat.instructions
    if instructions is None:
        raise UserError("no session yet: the instructions are read when the first request starts one")
    if not instructions.files:
        print("no project instructions in force (no AGENTS.md from the repository root down to the workdir)")
        return
    print("instructions in force (frozen when the session started):")
    for line in instructions.bill():
        print(f"  {line}")
    print(instructions.text)


def memories_of(chat: Chat):
    if chat.agent.memories is None:
        raise UserError("no memory in this agent")
    return chat.agent.memories


def show_memory(chat: Chat, _rest: str) -> None:
    """The memories in force, numbered in recall order (newest first, project over user)."""
    listed = memories_of(chat).listing()
    if not listed:
        print("no memories (the model keeps one with the remember tool)")
    for number, memory in enumerate(listed, 1):
        print(f"{number:>3}. ({memory.scope}) {memory.text}")


def forget_command(chat: Chat, rest: str) -> None:
    """``/forget N``: a tombstone for memory N of /memory, in the file it came from."""
    memories = memories_of(chat)
    listed = memories.listing()
    if not rest.isdigit() or not 1 <= int(rest) <= len(listed):
        raise UserError(f"usage: /forget N, where N is a number /memory lists (1 to {len(listed)})"
                        if listed else "no memories to forget")
    memory = listed[int(rest) - 1]
    memories.store(memory.scope).forget(memory.key)
    print(f"forgot {rest}: ({memory.scope}) {memory.text} - from the next session on; "
          "the file keeps its record, marked forgotten")


def show_plan(chat: Chat, _rest: str) -> None:
    """The todo list as it stands: what the model is doing, what is done, what is left."""
    plan = chat.agent.plan
    if plan is None:
        raise UserError("no plan in this agent")
    if not plan.items:
        print("no plan yet (the model makes one with the todo tool)")
        return
    print("\n".join(plan_lines(plan.record()["items"])))


def compact_command(chat: Chat, _rest: str) -> None:
    """``/compact``: summarise the older rounds now, whatever the history's size."""
    if chat.log is None:
        raise UserError("no session yet: send a request first")
    chat.compact()
