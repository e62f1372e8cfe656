"""A correct E2 written differently: puts the system prompt at the head of the history
unless a system message is already there (so a history loaded from elsewhere is fine too).
"""
TARGET = "mca/chat.py"
FAILS = ()


class Chat:
    def ask(self, text: str) -> str:
        if not any(m.get("role") == "system" for m in self.history[:1]):
            self.history.insert(0, {"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(list(self.history))
        self.history.append({"role": "assistant", "content": reply})
        return reply
