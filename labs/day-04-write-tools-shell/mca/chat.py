"""One conversation: the history, the agent that extends it, and the screen that shows it.

The history is the list of messages sent to the model with every request (it
remembers nothing itself). A turn adds to it through the agent loop, and every
event of the turn is shown as it happens.
"""

from __future__ import annotations

from dataclasses import dataclass

from .agent.events import AgentEvent
from .agent.loop import run_turn
from .gateway.base import Gateway
from .screen import Screen
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


class Chat:
    """The current conversation: its history, and where its events go."""

    def __init__(self, agent: Agent, screen: Screen) -> None:
        self.agent = agent
        self.screen = screen
        self.history: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}]

    def ask(self, text: str) -> str:
        """Run one turn."""
        agent = self.agent
        start = len(self.history)
        try:
            return run_turn(self.history, text, gateway=agent.gateway, tools=agent.tools, emit=self.emit)
        except Exception as exc:  # noqa: BLE001 - a tool that fails unexpectedly ends the turn (day 6 does better)
            self.screen.status(f"error (tool): the turn stopped: {type(exc).__name__}: {exc}")
            del self.history[start:]  # forget the turn: a call left without its result is a history no model accepts
            return ""

    def emit(self, event: AgentEvent) -> None:
        self.screen.show(event)      # ... then on the screen

    def close(self) -> None:
        """Nothing to close yet (day 7 adds a session log)."""
