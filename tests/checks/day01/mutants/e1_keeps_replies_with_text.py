"""E1: keeps a reply in the history only when it says something (`if reply:`): "an empty
answer is no answer, why carry it".

The turn happened all the same: the next request shows the user speaking twice in a row
and the model never answering, which is not what the model was told.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried",)


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(list(self.history))
        if reply:
            self.history.append({"role": "assistant", "content": reply})
        return reply
