"""E1: sends the whole history, but newest first after the system prompt ("the model
should read the question first").

Nothing is missing and the counts are right, yet the order is the meaning: the mock
takes the oldest question for the newest and answers the wrong turn.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "remembers-a-name")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete([self.history[0], *reversed(self.history[1:])])
        self.history.append({"role": "assistant", "content": reply})
        return reply
