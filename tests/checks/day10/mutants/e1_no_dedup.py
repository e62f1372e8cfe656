"""add() appends every time ("reading merges duplicates anyway"): an exact duplicate still
writes a record, so the file grows with every repeated remember."""
TARGET = "mca/memory/store.py"
FAILS = ("append-only",)


class MemoryStore:
    def add(self, text):
        reason = looks_secret(text, self.known_secrets)
        if reason:
            raise MemoryRefused(reason)
        key = key_of(text)
        record = {"op": "add", "id": new_id(), "key": key, "text": text, "at": time.time()}
        append_record(self.path, record, self.fsync)
        return Memory(record["id"], key, text, record["at"], self.scope), True
