"""E1: sends the whole history but leaves out messages with no text ("an API may refuse
an empty content, and it tells the model nothing").

Right as long as every reply has words; after a turn the model answered with nothing
(a reply that only called a tool, a refusal with null content), the request lacks that
assistant message and shows two user messages in a row: a conversation that never took place.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried",)


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        reply = self.gateway.complete([m for m in self.history if m["content"]])
        self.history.append({"role": "assistant", "content": reply})
        return reply
