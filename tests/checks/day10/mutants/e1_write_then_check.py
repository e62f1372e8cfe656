"""add() writes the record first and checks for a secret afterwards, cutting the file back
when it finds one ("the file ends clean"): the secret was on disk for the time between."""
TARGET = "mca/memory/store.py"
FAILS = ("secret-refused",)


class MemoryStore:
    def add(self, text):
        key = key_of(text)
        record = {"op": "add", "id": new_id(), "key": key, "text": text, "at": time.time()}
        for memory in self.memories():
            if memory.key == key and memory.text == text:
                return memory, False
        size = self.path.stat().st_size if self.path.exists() else 0
        append_record(self.path, record, self.fsync)
        reason = looks_secret(text, self.known_secrets)
        if reason:
            os.truncate(self.path, size)
            raise MemoryRefused(reason)
        return Memory(record["id"], key, text, record["at"], self.scope), True
