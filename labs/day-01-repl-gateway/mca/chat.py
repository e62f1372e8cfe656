"""One conversation: the history, and the model it is sent to.

The model remembers nothing between two calls. What looks like memory is this
list: the system prompt once, then every user and assistant message, sent again
in full with every request. That is also what later days build on: a log can bring
the list back after a restart, a long one can be compacted, a copy can be forked.
"""

from __future__ import annotations


from .gateway.base import Gateway

SYSTEM_PROMPT = "You are mca, a small assistant in a terminal. Answer briefly and plainly."


class Chat:
    """The conversation so far, and the model that answers it."""

    def __init__(self, gateway: Gateway, system_prompt: str = SYSTEM_PROMPT) -> None:
        self.gateway = gateway
        self.system_prompt = system_prompt
        self.history: list[dict] = []

    def ask(self, text: str) -> str:
        """One turn: send the conversation with the new message, keep the reply."""
        # Every request starts with the system prompt.
        self.history.insert(0, {"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        # The model saw the earlier turns already: send its instructions and what is new.
        reply = self.gateway.complete([m for m in self.history if m["role"] == "system"] + [self.history[-1]])
        self.history.append({"role": "assistant", "content": reply})
        return reply

    def close(self) -> None:
        """Nothing to close yet (day 7 adds a session log)."""
