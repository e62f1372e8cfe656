"""E2: appends the system prompt before every user message ("remind the model of its
instructions each turn").

The history is carried in full, but it collects one more system message per turn:
the request of turn N holds N of them.
"""
TARGET = "mca/chat.py"
FAILS = ("system-prompt-once", "history-grows-linearly")


class Chat:
    def ask(self, text: str) -> str:
        self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(list(self.history))
        self.history.append({"role": "assistant", "content": reply})
        return reply
