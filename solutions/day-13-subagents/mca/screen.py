"""Showing a turn on the terminal.

The screen sees agent events only, never what the gateway streamed: the loop turns
deltas into events, and whatever watches a turn (this screen, later the session
log) listens to those. The model's words go to stdout, as they stream. Everything
about the agent itself (tool calls, timings, errors) goes to stderr. Keeping them
apart means ``python -m mca "..." > answer.txt`` captures the answer and nothing else.
On a terminal both streams share one screen, so a line about the agent first ends the
line the model's text is on (``end_line``): the answer then ends in one newline either way.
"""

from __future__ import annotations

import sys
from typing import TextIO

from .agent.events import (AgentEvent, ErrorOccurred, MessageAdded, PlanChanged, PlanReminded, TextDelta,
                           ToolFinished, ToolStarted, UsageReported)
from .plan.todo import plan_lines
from .tools.base import describe_call


class Screen:
    """Prints agent events as they arrive."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.errors = 0  # how many times the model could not be reached: the exit status says so
        self.line_open = False  # the model's text is on the screen, its line not ended yet

    def show(self, event: AgentEvent) -> None:
        if isinstance(event, TextDelta):
            self.out.write(event.text)  # a piece of the reply, the moment it arrives
            self.out.flush()
            self.line_open = not event.text.endswith("\n")
        elif isinstance(event, MessageAdded):
            message = event.message
            if message.get("role") != "assistant":
                return
            self.end_line()  # every piece of the text is on the screen already: only its line is left to end
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ToolStarted):
            self.status(f"  -> {describe_call(event.name, event.args)}")
        elif isinstance(event, ToolFinished):
            self.status(f"  <- {tool_outcome(event)}")
        elif isinstance(event, PlanChanged):
            for line in plan_lines(event.plan.get("items") or []):  # the whole list, after every change
                self.status(line)
        elif isinstance(event, PlanReminded):
            self.status(reminder_bill(event))
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway" and not event.retrying  # a retried request may succeed
            self.status(f"error ({event.where}): {event.message}")

    def end_line(self) -> None:
        """End the line the model's text is on, if it is still open (a second call does nothing)."""
        if self.line_open:
            self.out.write("\n")
            self.out.flush()
            self.line_open = False

    def status(self, line: str) -> None:
        """One line about the agent, on stderr; it never starts in the middle of the model's text."""
        self.end_line()
        print(line, file=self.err, flush=True)


def tool_outcome(event: ToolFinished) -> str:
    if event.blocked_by:
        return f"{event.name} blocked by {event.blocked_by.replace('_', ' ')}"
    state = "ok" if event.ok else "failed"
    cut = ", truncated" if event.truncated else ""
    return f"{event.name} {state} ({event.ms} ms, {event.chars} chars{cut})"


def reminder_bill(event: PlanReminded) -> str:
    """The reminder's bill, like every injection's: what, characters, estimated tokens."""
    return (f"injected: plan reminder ({event.open} of {event.items} items open) "
            f"{event.chars} chars ≈ {event.tokens} tokens")
