# [day 1]
"""One conversation: the history, and the model it is sent to.

The model remembers nothing between two calls. What looks like memory is this
list: the system prompt once, then every user and assistant message, sent again
in full with every request. That is also what later days build on: a log can bring
the list back after a restart, a long one can be compacted, a copy can be forked.
"""
# [or day 2-6]
"""One conversation: the history, the agent that extends it, and the screen that shows it.

The history is the list of messages sent to the model with every request (it
remembers nothing itself). A turn adds to it through the agent loop, and every
event of the turn is shown as it happens.
"""
# [or day 7]
"""One conversation: the history, the agent that extends it, and the log that records it.

A Chat owns at most one open session log at a time. A new session is created only
when the first turn starts (so opening the REPL and leaving creates nothing); its
first event is the system message, carrying the model configuration the session is
frozen to. A resumed session brings its history back from the log and talks to the
model it was created with. Every agent event is recorded first and shown second:
what is on the screen is already on disk.
"""
# [or day 8]
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
"""
# [or day 9]
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
"""
# [or day 10]
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
"""
# [or day 11]
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
"""
# [or day 12+]
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
# [/day]

from __future__ import annotations

# [day 2-11]
from dataclasses import dataclass
# [or day 12+]
from dataclasses import dataclass, field
# [/day]
# [day 7+]
from pathlib import Path
# [/day]

# [day 2+]
from .agent.events import AgentEvent
from .agent.loop import run_turn
# [/day]
# [day 7+]
from .gateway import make_gateway
# [/day]
from .gateway.base import Gateway
# [day 12+]
from .context.compact import COMPACT_AT, KEEP_ROUNDS, Compaction, compact, context_tokens, setting
from .context.compact import bill_event as compaction_event
from .context.compact import bill_line as compaction_line
from .gateway.base import GatewayError
# [/day]
# [day 9+]
from .instructions import Instructions, changed_files, load_instructions
# [/day]
# [day 10+]
from .memory import Memories
from .memory.recall import bill_event, bill_line, render
# [/day]
# [day 11+]
from .plan import TodoList, plan_from_log, plan_lines
# [/day]
# [day 8+]
from .refs import expand
from .refs.bill import bill
# [/day]
# [day 2+]
from .screen import Screen
# [/day]
# [day 7+]
from .session import SessionLog
# [day 9+]
from .session import read_events
# [/day]
from .session.recorder import SessionRecorder
from .session.resume import Resumed, resume
# [/day]
# [day 5+]
from .tools.approval import Approver
# [/day]
# [day 3+]
from .tools.registry import ToolRegistry
# [/day]

# [day 1-2]
SYSTEM_PROMPT = "You are mca, a small assistant in a terminal. Answer briefly and plainly."
# [or day 3+]
SYSTEM_PROMPT = (
    "You are mca, a small coding agent. You work inside one project directory and use "
    "your tools to read files, edit them and run commands there. Check your work by "
    "running it, and say plainly what you found and what you changed."
)
# [/day]
# [day 1]


class Chat:
    """The conversation so far, and the model that answers it."""

    def __init__(self, gateway: Gateway, system_prompt: str = SYSTEM_PROMPT) -> None:
        self.gateway = gateway
        self.system_prompt = system_prompt
        self.history: list[dict] = []

    def ask(self, text: str) -> str:
        """One turn: send the conversation with the new message, keep the reply."""
        # BEGIN SOLUTION day-01 E2
        if not self.history:  # the system prompt opens the conversation, once
            self.history.append({"role": "system", "content": self.system_prompt})
        # END SOLUTION day-01 E2
        # BEGIN SCAFFOLD day-01 E2
        # # Every request starts with the system prompt.
        # self.history.insert(0, {"role": "system", "content": self.system_prompt})
        # END SCAFFOLD day-01 E2
        self.history.append({"role": "user", "content": text})
        # BEGIN SOLUTION day-01 E1
        reply = self.gateway.complete(list(self.history))  # the whole conversation, every time
        # END SOLUTION day-01 E1
        # BEGIN SCAFFOLD day-01 E1
        # # The model saw the earlier turns already: send its instructions and what is new.
        # reply = self.gateway.complete([m for m in self.history if m["role"] == "system"] + [self.history[-1]])
        # END SCAFFOLD day-01 E1
        self.history.append({"role": "assistant", "content": reply})
        return reply

    def close(self) -> None:
        """Nothing to close yet (day 7 adds a session log)."""
# [or day 2+]


@dataclass
class Agent:
    """The parts of a turn that stay the same from turn to turn."""

    gateway: Gateway
    # [day 3+]
    tools: ToolRegistry
    # [/day]
    # [day 5+]
    approver: Approver
    # [/day]
    # [day 7+]
    config: dict  # which model the gateway talks to (gateway.gateway_config): logged, never the key
    # [/day]
    # [day 8+]
    workdir: Path = Path(".")  # where @-references are resolved (the tools' workdir)
    # [/day]
    # [day 10+]
    memories: Memories | None = None  # the user's and the project's memory files (None: no memory)
    # [/day]
    # [day 11+]
    plan: TodoList | None = None  # the model's todo list (the todo tool holds the same object)
    # [/day]
    # [day 12+]
    # over how many tokens of history a turn compacts first, and how many rounds it keeps
    compact_at: int = field(default_factory=lambda: setting("MCA_COMPACT_AT", COMPACT_AT))
    keep_rounds: int = field(default_factory=lambda: setting("MCA_KEEP_ROUNDS", KEEP_ROUNDS))
    # [/day]


class Chat:
    """The current conversation: its history, and where its events go."""

    # [day 2-6]
    def __init__(self, agent: Agent, screen: Screen) -> None:
        self.agent = agent
        self.screen = screen
        self.history: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}]
    # [or day 7+]
    def __init__(self, sessions_dir: Path, agent: Agent, screen: Screen) -> None:
        self.sessions_dir = sessions_dir
        self.agent = agent
        self.screen = screen
        self.session_id: str | None = None
        self.log: SessionLog | None = None
        self.recorder: SessionRecorder | None = None
        self.history: list[dict] = []
        # [day 9+]
        self.instructions: Instructions | None = None  # in force in this session (None: no session yet)
        # [/day]
        # [day 14+]
        self.snapshots = None  # mca.snapshots.SnapshotStore the write tools save to (run.py sets it)
        # [/day]

    def start_new(self) -> None:
        """Create a session; its first event is the system message."""
        self.close()
        self.log = SessionLog.create(self.sessions_dir)
        self.session_id = self.log.session_id
        self.recorder = SessionRecorder(self.log)
        self.history = [{"role": "system", "content": SYSTEM_PROMPT}]
        # [day 7-8]
        # The first event is written here, not by the recorder: it also freezes the model.
        self.log.append("message", message=self.history[0], config=self.agent.config)
        self.screen.status(f"new session {self.session_id} (log: {self.log.path})")
        # [or day 9+]
        # What the agent adds on its own at the start, one step each: the project's instructions.
        self.instructions = self.start_instructions()
        # The first event is written here, not by the recorder: it freezes the model and the instructions.
        self.log.append("message", message=self.history[0], config=self.agent.config,
                        instructions=self.instructions.record())
        # [day 14+]
        self.open_snapshots()
        # [/day]
        self.screen.status(f"new session {self.session_id} (log: {self.log.path})")
        for line in self.instructions.bill():  # the bill, printed even when it is zero
            self.screen.status(line)
        # [day 10+]
        self.recall_memory()  # its own step, after the instructions
        # [/day]
        # [day 11+]
        if self.agent.plan is not None:
            self.agent.plan.load(TodoList())  # a new session starts without a plan
        # [/day]

    def start_instructions(self) -> Instructions:
        """Read the project's AGENTS.md files and put them in the history, once, after the system prompt."""
        instructions = load_instructions(self.agent.workdir)
        if instructions.message() is not None:
            self.history.append(instructions.message())
        return instructions
        # [/day]

    def resume(self, session_id: str | None = None) -> Resumed:
        """Continue the latest session, or ``session_id``, and say what came back."""
        resumed = resume(self.sessions_dir, session_id)
        self.close()
        self.log, self.session_id = resumed.log, resumed.session_id
        self.recorder = SessionRecorder(resumed.log)
        self.history = list(resumed.messages)
        # [day 14+]
        self.open_snapshots()
        # [/day]
        # [day 9+]
        self.restore_instructions()
        # [/day]
        # [day 11+]
        self.restore_plan()
        # [/day]
        for note in resumed.notes:  # why first (where the log stopped, which fork), then where the work goes on
            self.screen.status(note)
        self.screen.status(f"resumed {resumed.session_id}: {resumed.replayed} messages restored")
        self.use_config(resumed.config)
        # [day 9+]
        if self.instructions is not None and self.instructions.files:
            chars = sum(f["chars"] for f in self.instructions.files)
            tokens = sum(f["tokens"] for f in self.instructions.files)
            self.screen.status(f"instructions: as frozen when the session started, {len(self.instructions.files)} "
                               f"file(s), {chars} chars ≈ {tokens} tokens")
        # [/day]
        # [day 11+]
        if self.agent.plan is not None and self.agent.plan.items:
            for line in plan_lines(self.agent.plan.record()["items"]):  # the plan the session goes on with
                self.screen.status(line)
        # [/day]
        return resumed
    # [day 9+]

    def restore_instructions(self) -> None:
        """The instructions the session started with, back in the history after the system
        prompt, and a note naming every AGENTS.md that changed on disk since."""
        # BEGIN SOLUTION day-09 E3
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
        # END SOLUTION day-09 E3
        # BEGIN SCAFFOLD day-09 E3
        # # TODO(E3): use what the session's first event froze (Instructions.from_record), not the
        # # files as they are now, and say which files changed since (changed_files).
        # self.instructions = load_instructions(self.agent.workdir)
        # if self.instructions.message() is not None:
        #     self.history.insert(1, self.instructions.message())
        # END SCAFFOLD day-09 E3
    # [/day]

    def use_config(self, config: dict | None) -> None:
        """Talk to the model the session was created with, whatever today's environment names."""
        if not config or config == self.agent.config:
            return
        if config.get("gateway") == "mock" and self.agent.config.get("gateway") == "mock":
            return  # the mock is the mock, whatever a log calls it
        named = self.agent.config.get("model")
        # [day 7]
        self.agent = Agent(make_gateway(config), self.agent.tools, self.agent.approver, dict(config))
        # [or day 8-9]
        self.agent = Agent(make_gateway(config), self.agent.tools, self.agent.approver, dict(config),
                           self.agent.workdir)
        # [or day 10]
        self.agent = Agent(make_gateway(config), self.agent.tools, self.agent.approver, dict(config),
                           self.agent.workdir, self.agent.memories)
        # [or day 11+]
        self.agent = Agent(make_gateway(config), self.agent.tools, self.agent.approver, dict(config),
                           self.agent.workdir, self.agent.memories, self.agent.plan)
        # [/day]
        self.screen.status(f"  this session uses model {config.get('model')} ({config.get('gateway')}), as when "
                           f"it was created; the environment names {named}")
    # [/day]
    # [day 10+]

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
    # [/day]
    # [day 11+]

    def restore_plan(self) -> None:
        """The plan as the session's log left it, in the object the todo tool holds."""
        if self.agent.plan is not None:
            self.agent.plan.load(plan_from_log(read_events(self.log.path).events))
    # [/day]
    # [day 14+]

    def open_snapshots(self) -> None:
        """Point the snapshot store at the session now in use (a fork's parents' stores too)."""
        if self.snapshots is not None:
            self.snapshots.open(self.sessions_dir, self.session_id, self.log, read_events(self.log.path).events)
    # [/day]

    def ask(self, text: str) -> str:
        # [day 2-6]
        """Run one turn."""
        # [or day 7+]
        """Run one turn (creating the session first if there is none yet)."""
        if self.log is None:
            self.start_new()
        # [/day]
        # [day 12+]
        self.maybe_compact()  # the history as the next request would send it again, before the new message
        # [/day]
        # [day 8+]
        text = self.attach(text)  # what was typed, then what its references hold
        # [/day]
        agent = self.agent
        # [day 2]
        return run_turn(self.history, text, gateway=agent.gateway, emit=self.emit)
        # [or day 3-4]
        start = len(self.history)
        try:
            return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, emit=self.emit)
        except Exception as exc:  # noqa: BLE001 - a tool that fails unexpectedly ends the turn (day 6 does better)
            self.screen.status(f"error (tool): the turn stopped: {type(exc).__name__}: {exc}")
            del self.history[start:]  # forget the turn: a call left without its result is a history no model accepts
            return ""
        # [or day 5]
        start = len(self.history)
        try:
            return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, approver=agent.approver,
                            emit=self.emit)
        except Exception as exc:  # noqa: BLE001 - a tool that fails unexpectedly ends the turn (day 6 does better)
            self.screen.status(f"error (tool): the turn stopped: {type(exc).__name__}: {exc}")
            del self.history[start:]  # forget the turn: a call left without its result is a history no model accepts
            return ""
        # [or day 6]
        return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, approver=agent.approver,
                        emit=self.emit)
        # [or day 7-10]
        try:
            return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, approver=agent.approver,
                            emit=self.emit)
        finally:
            self.recorder.end_turn()
        # [or day 11+]
        try:
            return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, approver=agent.approver,
                            emit=self.emit, plan=agent.plan)
        finally:
            self.recorder.end_turn()
        # [/day]
    # [day 8+]

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
    # [/day]
    # [day 12+]

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
    # [/day]

    def emit(self, event: AgentEvent) -> None:
        # [day 7+]
        self.recorder.handle(event)  # on disk first ...
        # [/day]
        self.screen.show(event)      # ... then on the screen

    def close(self) -> None:
        # [day 2-6]
        """Nothing to close yet (day 7 adds a session log)."""
        # [or day 7+]
        if self.log is not None:
            self.log.close()
        self.log = self.recorder = None
        # [/day]
# [/day]
