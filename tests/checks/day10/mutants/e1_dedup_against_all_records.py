"""add() looks for the duplicate among every record of the file, forgotten ones included: a
memory that was forgotten and is remembered again writes nothing, so it stays forgotten."""
TARGET = "mca/memory/store.py"
FAILS = ("append-only",)


class MemoryStore:
    def add(self, text):
        reason = looks_secret(text, self.known_secrets)
        if reason:
            raise MemoryRefused(reason)
        key = key_of(text)
        record = {"op": "add", "id": new_id(), "key": key, "text": text, "at": time.time()}
        for old in self.records():
            if old.get("op") == "add" and old.get("text") == text:
                return Memory(str(old.get("id")), key, text, float(old.get("at") or 0), self.scope), False
        append_record(self.path, record, self.fsync)
        return Memory(record["id"], key, text, record["at"], self.scope), True
