"""E1: sends the whole history, but each distinct message only once ("repeats waste
tokens"), keeping the first occurrence.

A conversation in which nothing is said twice goes out intact; as soon as the user
repeats a question (or the model an answer), the newest copy - the one being
asked now - vanishes from the request.
"""
TARGET = "mca/chat.py"
FAILS = ("history-carried", "remembers-a-name")


class Chat:
    def ask(self, text: str) -> str:
        if not self.history:
            self.history.append({"role": "system", "content": self.system_prompt})
        self.history.append({"role": "user", "content": text})
        seen, request = set(), []
        for message in self.history:
            key = (message["role"], message["content"])
            if key not in seen:
                seen.add(key)
                request.append(message)
        reply = self.gateway.complete(request)
        self.history.append({"role": "assistant", "content": reply})
        return reply
