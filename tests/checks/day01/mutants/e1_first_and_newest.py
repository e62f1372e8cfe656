"""E1: sends the system prompt, the first user message ("what the conversation is about")
and the newest one.

Turn 2 looks almost right (two of its three messages are there), but the middle of
the conversation never reaches the model.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "remembers-a-name", "history-grows-linearly")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        request = self.history[:2] if len(self.history) == 2 else [*self.history[:2], self.history[-1]]
        reply = self.gateway.complete(request)
        self.history.append({"role": "assistant", "content": reply})
        return reply
