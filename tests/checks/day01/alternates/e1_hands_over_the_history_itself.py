"""A correct E1 written differently: hands the gateway self.history itself, not a copy.

The list grows after the call (the reply is appended), but what a gateway reads is
the list as it is during the call, which is the whole conversation.
"""
TARGET = "mca/chat.py"
FAILS = ()


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(self.history)
        self.history.append({"role": "assistant", "content": reply})
        return reply
