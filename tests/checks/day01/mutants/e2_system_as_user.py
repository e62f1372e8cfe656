"""E2: opens the conversation once with the prompt, but as a user message ("models
follow the user best").

One prompt, first, never repeated - but there is no system message at all, and the
model takes the instructions for something the user said.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "system-prompt-once")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "user", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(list(self.history))
        self.history.append({"role": "assistant", "content": reply})
        return reply
