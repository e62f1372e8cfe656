"""E1: leaves the system prompt out of the request ("it was sent on turn 1, the model
has it"), sending history[1:].

The same wrong idea as the trap, applied to the instructions instead of the turns:
the model never sees the system prompt at all.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "system-prompt-once", "history-grows-linearly")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(self.history[1:])
        self.history.append({"role": "assistant", "content": reply})
        return reply
