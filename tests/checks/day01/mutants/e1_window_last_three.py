"""E1: a sliding window - the system prompt and the last three messages, "to keep the
requests small".

The previous exchange and the new question fit; anything older falls out of the
request, so a name given two turns ago is gone.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "remembers-a-name", "history-grows-linearly")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete([self.history[0], *self.history[1:][-3:]])
        self.history.append({"role": "assistant", "content": reply})
        return reply
