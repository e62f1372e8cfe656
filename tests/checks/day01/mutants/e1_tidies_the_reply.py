"""E1: sends the whole history, and tidies what comes back with `.strip()` before keeping
and returning it ("models leave stray newlines").

The history no longer holds what the model said (a reply that ended in a line break, or
began with an indented block, comes back changed on the next request), and the one-shot
prints the tidied text instead of the reply.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "reply-parsed")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(list(self.history)).strip()
        self.history.append({"role": "assistant", "content": reply})
        return reply
