"""A correct E1 and E2 together, written differently: the history holds only the turns,
and the system prompt is put in front of it when the request is made.

Every request still opens with exactly one system message and carries every turn.
"""
TARGET = "mca/chat.py"
FAILS = ()


class Chat:
    def ask(self, text: str) -> str:
        self.history.append({"role": "user", "content": text})
        request = [{"role": "system", "content": self.system_prompt}, *self.history]
        reply = self.gateway.complete(request)
        self.history.append({"role": "assistant", "content": reply})
        return reply
