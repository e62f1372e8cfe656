"""E1: sends the system prompt and every user message, but drops the assistant's replies
("the model knows what it said itself").

Looks like it carries the conversation, and the mock even recalls the name (it reads
user messages only), but the model never sees its own answers: every request is a
list of questions with no replies between them.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "history-grows-linearly")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete([m for m in self.history if m["role"] != "assistant"])
        self.history.append({"role": "assistant", "content": reply})
        return reply
