"""E1: packs the conversation into one user message, a transcript ("User: ... /
Assistant: ..."), after the system prompt.

Everything said is in the request, but not as turns: the model reads one long
question, and the mock answers the first thing in it (the introduction) again.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "remembers-a-name", "history-grows-linearly")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        transcript = "\n".join(f"{m['role'].title()}: {m['content']}" for m in self.history[1:])
        reply = self.gateway.complete([self.history[0], {"role": "user", "content": transcript}])
        self.history.append({"role": "assistant", "content": reply})
        return reply
