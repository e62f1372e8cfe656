"""add() writes the whole file to a temp file and renames it over the old one ("atomic, so
safe"): the file is replaced (a new inode), and an older record rewritten."""
TARGET = "mca/memory/store.py"
FAILS = ("append-only",)

import tempfile


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
        kept = self.records() + [record]
        fd, tmp = tempfile.mkstemp(dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept))
        os.replace(tmp, self.path)
        return Memory(record["id"], key, text, record["at"], self.scope), True
