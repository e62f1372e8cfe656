"""E2: keeps one system prompt, but moves it each turn to just before the new question
("instructions last are followed better").

There is exactly one system message in every request, and none is lost, but from
turn 2 on it is no longer the first message: the conversation no longer opens with it.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "system-prompt-once")


class Chat:
    def ask(self, text: str) -> str:
        self.history = [m for m in self.history if m["role"] != "system"]
        self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete(list(self.history))
        self.history.append({"role": "assistant", "content": reply})
        return reply
