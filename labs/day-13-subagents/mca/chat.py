"""One conversation: the history, the agent that extends it, and the log that records it.

A Chat owns at most one open session log at a time. A new session is created only
when the first turn starts (so opening the REPL and leaving creates nothing); its
first event is the system message, carrying the model configuration the session is
frozen to. A resumed session brings its history back from the log and talks to the
model it was created with. Every agent event is recorded first and shown second:
what is on the screen is already on disk.

Day 8: before a turn, the message's @-references are resolved (mca/refs). What they
inject is part of the user message, so the log holds exactly what was sent; the bill
is printed and logged (an ``injected`` event) before the message itself.

Day 9: a new session starts with the context the agent adds on its own, each a step of
its own, in order: first the project's instructions (mca/instructions.py), one system
message after the system prompt, with their bill. The first event freezes them, so a
resumed session sends the text it started with and says which files changed since.

Day 10: when a session starts, the memories in force are recalled (mca/memory) into one
system message after what opens the session, with its bill printed and logged (a
``recalled`` event) first. It is a message event like any other, so a resumed session
sends it as it was sent, and never recalls again.

Day 11: the model keeps a plan with the todo tool (mca/plan). The list lives in the
agent; every accepted update is shown and logged (a ``plan`` event), the loop reminds
the model of a plan it stopped looking at (a ``reminded`` event, then the message), and
a resumed session rebuilds the list from its log's last ``plan`` event.

Day 12: before a turn, a history over the threshold is compacted (mca/context): its
older rounds become one summary the model writes, the prefix and the last rounds stay
as they were. Only once the summary is in hand is a ``compacted`` event logged (which
replay honours on resume) and the bill printed; a compaction that fails, or would not
make the history smaller, leaves it as it was and says why. ``/compact`` forces one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .agent.events import AgentEvent
from .agent.loop import run_turn
from .gateway import make_gateway
from .gateway.base import Gateway
from .context.compact import COMPACT_AT, KEEP_ROUNDS, Compaction, compact, context_tokens, setting
from .context.compact import bill_event as compaction_event
from .context.compact import bill_line as compaction_line
from .gateway.base import GatewayError
from .instructions import Instructions, changed_files, load_instructions
from .memory import Memories
from .memory.recall import bill_event, bill_line, render
from .plan import TodoList, plan_from_log, plan_lines
from .refs import expand
from .refs.bill import bill
from .screen import Screen
from .session import SessionLog
from .session import read_events
from .session.recorder import SessionRecorder
from .session.resume import Resumed, resume
from .tools.approval import Approver
from .tools.registry import ToolRegistry

SYSTEM_PROMPT = (
    "You are mca, a small coding agent. You work inside one project directory and use "
    "your tools to read files, edit them and run commands there. Check your work by "
    "running it, and say plainly what you found and what you changed."
)


@dataclass
class Agent:
    """The parts of a turn that stay the same from turn to turn."""

    gateway: Gateway
    tools: ToolRegistry
    approver: Approver
    config: dict  # which model the gateway talks to (gateway.gateway_config): logged, never the key
    workdir: Path = Path(".")  # where @-references are resolved (the tools' workdir)
    memories: Memories | None = None  # the user's and the project's memory files (None: no memory)
    plan: TodoList | None = None  # the model's todo list (the todo tool holds the same object)
    # over how many tokens of history a turn compacts first, and how many rounds it keeps
    compact_at: int = field(default_factory=lambda: setting("MCA_COMPACT_AT", COMPACT_AT))
    keep_rounds: int = field(default_factory=lambda: setting("MCA_KEEP_ROUNDS", KEEP_ROUNDS))


class Chat:
    """The current conversation: its history, and where its events go."""

    def __init__(self, sessions_dir: Path, agent: Agent, screen: Screen) -> None:
        self.sessions_dir = sessions_dir
        self.agent = agent
        self.screen = screen
        self.session_id: str | None = None
        self.log: SessionLog | None = None
        self.recorder: SessionRecorder | None = None
        self.history: list[dict] = []
        self.instructions: Instructions | None = None  # in force in this session (None: no session yet)

    def start_new(self) -> None:
        """Create a session; its first event is the system message."""
        self.close()
        self.log = SessionLog.create(self.sessions_dir)
        self.session_id = self.log.session_id
        self.recorder = SessionRecorder(self.log)
        self.history = [{"role": "system", "content": SYSTEM_PROMPT}]
        # What the agent adds on its own at the start, one step each: the project's instructions.
        self.instructions = self.start_instructions()
        # The first event is written here, not by the recorder: it freezes the model and the instructions.
        self.log.append("message", message=self.history[0], config=self.agent.config,
                        instructions=self.instructions.record())
        self.screen.status(f"new session {self.session_id} (log: {self.log.path})")
        for line in self.instructions.bill():  # the bill, printed even when it is zero
            self.screen.status(line)
        self.recall_memory()  # its own step, after the instructions
        if self.agent.plan is not None:
            self.agent.plan.load(TodoList())  # a new session starts without a plan

    def start_instructions(self) -> Instructions:
        """Read the project's AGENTS.md files and put them in the history, once, after the system prompt."""
        instructions = load_instructions(self.agent.workdir)
        if instructions.message() is not None:
            self.history.append(instructions.message())
        return instructions

    def resume(self, session_id: str | None = None) -> Resumed:
        """Continue the latest session, or ``session_id``, and say what came back."""
        resumed = resume(self.sessions_dir, session_id)
        self.close()
        self.log, self.session_id = resumed.log, resumed.session_id
        self.recorder = SessionRecorder(resumed.log)
        self.history = list(resumed.messages)
        self.restore_instructions()
        self.restore_plan()
        for note in resumed.notes:  # why first (where the log stopped, which fork), then where the work goes on
            self.screen.status(note)
        self.screen.status(f"resumed {resumed.session_id}: {resumed.replayed} messages restored")
        self.use_config(resumed.config)
        if self.instructions is not None and self.instructions.files:
            chars = sum(f["chars"] for f in self.instructions.files)
            tokens = sum(f["tokens"] for f in self.instructions.files)
            self.screen.status(f"instructions: as frozen when the session started, {len(self.instructions.files)} "
                               f"file(s), {chars} chars ≈ {tokens} tokens")
        if self.agent.plan is not None and self.agent.plan.items:
            for line in plan_lines(self.agent.plan.record()["items"]):  # the plan the session goes on with
                self.screen.status(line)
        return resumed

    def restore_instructions(self) -> None:
        """The instructions the session started with, back in the history after the system
        prompt, and a note naming every AGENTS.md that changed on disk since."""
        events = read_events(self.log.path).events
        first = events[0].fields if events and events[0].seq == 1 else {}
        frozen = Instructions.from_record(first.get("instructions"))
        self.instructions = frozen or Instructions()
        if frozen is None:
            return  # a session from before day 9 froze none: it goes on without
        if frozen.message() is not None:
            self.history.insert(1, frozen.message())
        changes = changed_files(frozen, self.agent.workdir)
        if changes:
            self.screen.status("note: instruction files changed since this session started: " + "; ".join(changes)
                               + ". The session keeps the text it started with (/instructions shows it); "
                               "a new session reads the files again.")

    def use_config(self, config: dict | None) -> None:
        """Talk to the model the session was created with, whatever today's environment names."""
        if not config or config == self.agent.config:
            return
        if config.get("gateway") == "mock" and self.agent.config.get("gateway") == "mock":
            return  # the mock is the mock, whatever a log calls it
        named = self.agent.config.get("model")
        self.agent = Agent(make_gateway(config), self.agent.tools, self.agent.approver, dict(config),
                           self.agent.workdir, self.agent.memories, self.agent.plan)
        self.screen.status(f"  this session uses model {config.get('model')} ({config.get('gateway')}), as when "
                           f"it was created; the environment names {named}")

    def recall_memory(self) -> None:
        """Put the memories in force into the new session: the bill printed, then the
        ``recalled`` event and the message logged. No memory in force: nothing at all."""
        if self.agent.memories is None:
            return
        recalled = self.agent.memories.recall()
        if not recalled.memories and not recalled.left_out:
            return
        content = render(recalled.memories) if recalled.memories else ""
        self.screen.status(bill_line(recalled, content))
        self.log.append("recalled", **bill_event(recalled, content))
        if not recalled.memories:
            return  # every memory was over the budget: said on the bill, nothing sent
        message = {"role": "system", "content": content}
        self.history.append(message)
        self.log.append("message", message=message)

    def restore_plan(self) -> None:
        """The plan as the session's log left it, in the object the todo tool holds."""
        if self.agent.plan is not None:
            self.agent.plan.load(plan_from_log(read_events(self.log.path).events))

    def ask(self, text: str) -> str:
        """Run one turn (creating the session first if there is none yet)."""
        if self.log is None:
            self.start_new()
        self.maybe_compact()  # the history as the next request would send it again, before the new message
        text = self.attach(text)  # what was typed, then what its references hold
        agent = self.agent
        try:
            return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, approver=agent.approver,
                            emit=self.emit, plan=agent.plan)
        finally:
            self.recorder.end_turn()

    def attach(self, text: str) -> str | list[dict]:
        """The user message to send for ``text``: its @-references resolved, each one that
        could not be said in a note, the bill printed, then logged (before the message)."""
        expanded = expand(text, self.agent.workdir)
        for injection in expanded.injections:
            if injection.note is not None:
                self.screen.status(f"note: @{injection.ref} not injected: {injection.note}")
        accounted = bill(expanded.injections)
        for line in accounted.lines:
            self.screen.status(line)
        if accounted.event is not None:
            self.log.append("injected", **accounted.event)
        return expanded.content

    def maybe_compact(self) -> None:
        """Compact first when the history is over the threshold."""
        size = context_tokens(self.history)
        if size > self.agent.compact_at:
            self.screen.status(f"context: ≈ {size} tokens, over the threshold of {self.agent.compact_at}: compacting")
            self.compact()

    def compact(self) -> Compaction | None:
        """Replace the older rounds by a summary: the history changes, the ``compacted`` event
        is logged and the bill printed only once the summary is in hand. Otherwise the
        history stays as it was, and one line says why."""
        try:
            result = compact(self.history, self.agent.gateway, self.agent.keep_rounds)
        except NotImplementedError as exc:  # a lab still being written: the turn goes on uncompacted
            self.screen.status(f"compaction skipped: not implemented yet: {exc}")
            return None
        except GatewayError as exc:
            self.screen.status(f"compaction failed: {exc}; the history is kept as it was")
            return None
        if result.summary is None:
            self.screen.status(f"compaction not done: {result.skipped}; the history is kept as it was")
            return None
        upto_seq = self.last_summarised_seq(result.kept)
        self.log.append("compacted", **compaction_event(result, upto_seq))
        self.history[:] = result.history
        self.screen.status(compaction_line(result, upto_seq))
        return result

    def last_summarised_seq(self, kept: int) -> int:
        """The seq of the last message event the summary covers: the one before the ``kept``
        messages, which are the last ones logged (the prefix's system messages come before)."""
        seqs = [event.seq for event in read_events(self.log.path).events if event.type == "message"]
        return seqs[-kept - 1] if len(seqs) > kept else 0

    def emit(self, event: AgentEvent) -> None:
        self.recorder.handle(event)  # on disk first ...
        self.screen.show(event)      # ... then on the screen

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
        self.log = self.recorder = None
