"""add() calls a memory with the same key a duplicate, whatever its text: a newer text for a
key ("test command: tox" after "test command: pytest") is never written."""
TARGET = "mca/memory/store.py"
FAILS = ("append-only",)


class MemoryStore:
    def add(self, text):
        reason = looks_secret(text, self.known_secrets)
        if reason:
            raise MemoryRefused(reason)
        key = key_of(text)
        record = {"op": "add", "id": new_id(), "key": key, "text": text, "at": time.time()}
        for memory in self.memories():
            if memory.key == key:
                return memory, False
        append_record(self.path, record, self.fsync)
        return Memory(record["id"], key, text, record["at"], self.scope), True
