"""add() keeps every byte but writes them all again (read the file, write it back with the new
line): the prefix and the inode survive, yet the file is truncated for the time of the write."""
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
        old = self.path.read_bytes() if self.path.exists() else b""
        if old and not old.endswith(b"\n"):
            old += b"\n"
        self.path.write_bytes(old + (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
        return Memory(record["id"], key, text, record["at"], self.scope), True
