"""add() appends with open(path, "a") itself, one line per record, but never looks at how the
file ends: after a torn last line (a crash mid-write) the new record is glued onto it and lost."""
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
            if memory.key == key and memory.text == text:
                return memory, False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        return Memory(record["id"], key, text, record["at"], self.scope), True
