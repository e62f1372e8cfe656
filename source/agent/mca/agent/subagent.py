# [day 13+]
"""Subagents: a side task in a fresh context, and only its answer back.

The model hands a side task to a child agent with the ``task`` tool (``description``: a few
words for the screen and the logs; ``prompt``: everything the child is to know). Reading
twenty files to answer one question puts twenty results into the context, and the session
sends them again with every later request; a child does that work in a context of its own,
and the parent reads one answer. The child runs in the same process, while the parent waits
for the call's result:

    parent  [system, ..., user, assistant: task(description, prompt)]    waits for one result
    child   [its own system prompt, user: prompt, its rounds ...]         nothing of the parent's
    parent  [system, ..., user, assistant: task(...), tool: the answer]   the answer, and only it

* **Fresh, answer only** (E1, ``run_subagent``): the child's history is its own system prompt
  and the prompt, none of the parent's messages. What comes back is the child's final answer,
  at most ANSWER_CAP characters (a longer one is cut as day 3 cuts a tool result, and says
  so), billed like every injection of week 2: one line on the screen and a ``task_answer``
  event in the parent's log. A child that did not answer (its round cap, its budget, Ctrl-C,
  a failed request) gives an ``error:`` result that says why, and what it said last.
* **Limited** (E2, ``child_tools``): the parent's read-only tools; a write tool only where a
  rule of the parent allows that tool outright (``--rule "allow write_file"``); never ``task``
  (a subagent starts no subagent) nor ``todo`` (the plan is the parent's). Every call of the
  child passes the parent's approval gate. Its own round cap ($MCA_TASK_ROUNDS, else
  TASK_ROUNDS) and token budget ($MCA_TASK_BUDGET, else TASK_BUDGET: what its requests cost,
  input and output, as the model reports it): a child that reaches either stops.
* **Cancelled alone**: Ctrl-C while the child runs ends the child's turn (day 6's rule, in
  its run_turn), and the parent's turn goes on with a result saying the task was cancelled.
* **Linked** (E3, ``open_child_log``): the child has a session log of its own,
  ``<sessions dir>/<parent id>/subagents/<child id>.jsonl`` (beside the parent's, so
  ``--resume`` never takes it for the latest session); its first event names
  ``parent_session`` and ``parent_call``, and the parent's log names the child in a
  ``subagent`` event before the call's result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from ..context.compact import setting, transcript
from ..gateway.base import Gateway, GatewayError, StreamDelta
from ..plan.todo import TODO_TOOL
from ..refs.bill import estimate_tokens
from ..screen import tool_outcome
from ..session import SessionLog
from ..session.recorder import SessionRecorder
from ..tools.approval import Approver, Decision
from ..tools.base import Tool, ToolError, describe_call
from ..tools.registry import ToolRegistry
from ..tools.truncate import truncate
from .events import AgentEvent, ErrorOccurred, MessageAdded, ToolFinished, ToolStarted, UsageReported
from .loop import run_turn

if TYPE_CHECKING:  # the conversation a side task serves; only its attributes are used here
    from ..chat import Chat

TASK_TOOL = "task"
TASK_ROUNDS = 6        # model rounds a side task may take
TASK_BUDGET = 24_000   # tokens a side task's requests may cost in all (input and output)
ANSWER_CAP = 2_000     # characters of the child's answer the parent reads; a longer one is cut, and says so
PARENT_ONLY = (TASK_TOOL, TODO_TOOL)  # a subagent starts no subagent, and keeps no hand in the parent's plan
SUBAGENTS_DIR = "subagents"
CHILD_SYSTEM_PROMPT = (
    "You are a subagent of mca, a small coding agent. Another agent, working with a user, handed you "
    "one side task: you see the task and nothing of its conversation. Use your tools to find out what "
    "the task asks, then answer once, briefly and completely: your final answer is all the other agent "
    "will read."
)


class Subagents:
    """The task tool's runner. It starts each side task for the conversation it serves, which
    run.py names once the Chat exists (the session, the model and the rules are the Chat's)."""

    def __init__(self) -> None:
        self.chat: Chat | None = None

    def run(self, args: dict, call_id: str) -> str:
        if self.chat is None or self.chat.log is None:
            raise ToolError("a side task runs only inside a session's turn")
        return run_subagent(self.chat, call_id, args)


def task_tools(subagents: Subagents) -> list[Tool]:
    return [Tool(
        name=TASK_TOOL,
        description=("Hand a side task to a subagent: a fresh agent that sees only your prompt (nothing of "
                     "this conversation), can read the project, and answers once. Use it for work that would "
                     "fill this context (searching many files, reading long output); its answer is all you "
                     "get back. description: a few words for the user; prompt: all the subagent needs to know."),
        parameters={"type": "object", "properties": {"description": {"type": "string"},
                                                     "prompt": {"type": "string"}},
                    "required": ["description", "prompt"]},
        run=subagents.run,
        read_only=True,  # it changes nothing itself: every call the subagent makes passes the gate on its own
        takes_call=True,  # it is told which call it answers: the child's log names it
    )]


def run_subagent(chat: Chat, call_id: str, args: dict) -> str:
    """Run one side task in a child agent; return what the parent's model reads as the call's
    result: the child's final answer, capped and declared, and billed. A child that gave no
    answer raises ToolError saying why (the parent reads ``error: ...``)."""
    description = " ".join(str(args["description"]).split()) or "side task"
    prompt = str(args["prompt"])
    child = start_child(chat, call_id, description)
    try:
        # BEGIN SOLUTION day-13 E1
        history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT}]  # its own start: nothing of the parent's
        text = run_turn(history, prompt, gateway=child.gateway, tools=child.tools, approver=child.approver,
                        emit=child.emit, max_rounds=child.max_rounds)  # run_turn: Ctrl-C ends this turn only
        if child.stopped():  # the round cap, the budget, Ctrl-C, a failed request: there is no answer
            raise ToolError(f'the side task "{description}" {child.stopped()}{child.last_words()}')
        answer, cut = truncate(text, ANSWER_CAP)  # the answer, and nothing else of the child's work
        # END SOLUTION day-13 E1
        # BEGIN SCAFFOLD day-13 E1
        # # The child picks up where the conversation is (what was asked and answered so far,
        # # without the call in progress), so it knows what the side task is about; and the
        # # parent hears all the child did, every call and every result, so nothing is lost.
        # history = [{"role": "system", "content": CHILD_SYSTEM_PROMPT}]
        # history += [m for m in chat.history if m["role"] == "user"
        #             or (m["role"] == "assistant" and not m.get("tool_calls"))]
        # run_turn(history, prompt, gateway=child.gateway, tools=child.tools, approver=child.approver,
        #          emit=child.emit, max_rounds=child.max_rounds)
        # text = transcript(history[1:])
        # answer, cut = text, False
        # END SCAFFOLD day-13 E1
    finally:
        child.close()
    bill = {"call": call_id, "rounds": child.rounds, "spent": child.spent, "chars": len(answer),
            "tokens": estimate_tokens(answer), "truncated": cut}
    chat.screen.status(f'injected: answer of task "{description}" (subagent {child.log.session_id}, '
                       f"{plural(child.rounds, 'round')}) {bill['chars']} chars ≈ {bill['tokens']} tokens"
                       + (f" (cut from {len(text)} chars)" if cut else ""))
    chat.log.append("task_answer", **bill)
    return answer


def child_tools(tools: ToolRegistry, approver: Approver) -> ToolRegistry:
    """The tools a side task gets from the parent's: what reads, what a rule of the parent
    allows outright, and never what belongs to the parent alone (PARENT_ONLY)."""
    # BEGIN SOLUTION day-13 E2
    kept = []
    for name in tools.names():
        tool = tools.get(name)
        if name in PARENT_ONLY:
            continue  # no task: a subagent starts no subagent; no todo: the plan is the parent's
        if tool.read_only or approver.allows(name):  # a write only where the user's rules say so
            kept.append(tool)
    return ToolRegistry(kept, tools.max_chars)
    # END SOLUTION day-13 E2
    # BEGIN SCAFFOLD day-13 E2
    # # TODO(E2): a side task reads. Keep the read-only tools and the write tools a rule of the
    # # parent allows outright (approver.allows), and never the tools of PARENT_ONLY: a child
    # # that has `task` can start a subagent of its own, and that one another.
    # return tools
    # END SCAFFOLD day-13 E2


def subagents_dir(sessions_dir: Path, parent_id: str) -> Path:
    """Where the logs of a session's subagents live: beside its own, never among the sessions."""
    return Path(sessions_dir) / parent_id / SUBAGENTS_DIR


def open_child_log(chat: Chat, call_id: str, description: str) -> SessionLog:
    """The child's own session log, its first event written, and the two logs linked."""
    parent = chat.log
    log = SessionLog.create(subagents_dir(chat.sessions_dir, parent.session_id))
    first = {"role": "system", "content": CHILD_SYSTEM_PROMPT}
    # BEGIN SOLUTION day-13 E3
    # The child's first event says who started it; the parent's log says where the child is, before
    # the call's result: each can be found from the other.
    log.append("message", message=first, config=chat.agent.config, parent_session=parent.session_id,
               parent_call=call_id, description=description)
    parent.append("subagent", call=call_id, session=log.session_id, description=description)
    # END SOLUTION day-13 E3
    # BEGIN SCAFFOLD day-13 E3
    # # TODO(E3): link the two logs. The child's first event names the session and the call that
    # # started it (parent_session, parent_call); the parent's log names the child (a subagent
    # # event with the call and the child's session id), before the call's result.
    # log.append("message", message=first, config=chat.agent.config)
    # END SCAFFOLD day-13 E3
    return log


# --- the child while it runs ----------------------------------------------------------

@dataclass
class Child:
    """One subagent while it runs: its log, tools and limits, and what it has done so far."""

    log: SessionLog
    tools: ToolRegistry
    approver: ChildGate  # the parent's rules, for the tools the child has
    model: Gateway
    show: Callable[[str], None]
    max_rounds: int = TASK_ROUNDS
    budget: int = TASK_BUDGET
    spent: int = 0        # tokens its requests cost so far
    rounds: int = 0       # model rounds so far
    said: str = ""        # the text of its latest reply
    error: str | None = None  # what ended its turn, if something did
    over_budget: bool = False
    recorder: SessionRecorder = field(init=False)
    gateway: Gateway = field(init=False)  # the model, within the budget

    def __post_init__(self) -> None:
        self.recorder = SessionRecorder(self.log)
        self.gateway = Budgeted(self)

    def emit(self, event: AgentEvent) -> None:
        """The child's events: in its own log first (day 7), then a line on the parent's screen."""
        self.recorder.handle(event)
        if isinstance(event, UsageReported):
            self.spent += event.input_tokens + event.output_tokens
        elif isinstance(event, MessageAdded) and event.message.get("role") == "assistant":
            self.rounds += 1
            self.said = str(event.message.get("content") or "")
        elif isinstance(event, ToolStarted):
            self.show(f"  [subagent] -> {describe_call(event.name, event.args)}")
        elif isinstance(event, ToolFinished):
            self.show(f"  [subagent] <- {tool_outcome(event)}")
        elif isinstance(event, ErrorOccurred):
            self.show(f"  [subagent] error ({event.where}): {event.message}")
            if not event.retrying:
                self.error = event.message

    def stopped(self) -> str | None:
        """Why the child gave no answer, in words that follow "the side task ..."; None if it answered."""
        if self.over_budget:
            return f"stopped: it spent its token budget ({self.spent} of {self.budget} tokens)"
        if self.error is None:
            return None
        if "cancelled" in self.error:
            return "was cancelled by the user (Ctrl-C) before it answered"
        if self.error.startswith("stopped after"):
            return f"{self.error} (its round cap)"
        return f"failed: {self.error}"

    def last_words(self) -> str:
        """What the child said last, capped: a partial finding is worth passing on."""
        if not self.said.strip():
            return ""
        return "; what it said last: " + truncate(" ".join(self.said.split()), 400)[0]

    def close(self) -> None:
        self.log.close()


class Budgeted:
    """The parent's model, as a child talks to it: no request once its budget is spent."""

    def __init__(self, child: Child) -> None:
        self.child = child

    def stream(self, messages: list[dict], tools: list[dict] | None = None) -> Iterator[StreamDelta]:
        child = self.child
        if child.spent >= child.budget:
            child.over_budget = True
            raise GatewayError(f"the side task's token budget is spent ({child.spent} of {child.budget} tokens)")
        yield from child.model.stream(messages, tools)


def start_child(chat: Chat, call_id: str, description: str) -> Child:
    """The child's log (linked), its tools and its limits; one line on the screen says so."""
    agent = chat.agent
    tools = child_tools(agent.tools, agent.approver)
    log = open_child_log(chat, call_id, description)
    child = Child(log, tools, ChildGate(agent.approver, tools), agent.gateway, chat.screen.status,
                  max_rounds=setting("MCA_TASK_ROUNDS", TASK_ROUNDS), budget=setting("MCA_TASK_BUDGET", TASK_BUDGET))
    chat.screen.status(f'task "{description}": subagent {log.session_id} with '
                       f"{', '.join(tools.names()) or 'no tools'} (at most {plural(child.max_rounds, 'round')}, "
                       f"{child.budget} tokens)")
    return child


class ChildGate:
    """The parent's approval gate, for a child's calls. A tool the child was not given is not
    asked about (nobody should be asked to approve what cannot run): the registry answers
    that the child has no such tool."""

    def __init__(self, approver: Approver, tools: ToolRegistry) -> None:
        self.approver, self.tools = approver, tools

    def decide(self, name: str, args: dict) -> Decision:
        if self.tools.get(name) is None:
            return Decision(True)  # nothing runs: the child's registry refuses it
        return self.approver.decide(name, args)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
# [/day]
