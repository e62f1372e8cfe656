"""add() appends the record itself with open(path, "ab"), after a newline when the file does
not end in one, and finds the duplicate among the records it reads with live()."""
TARGET = "mca/memory/store.py"
FAILS = ()


class MemoryStore:
    def add(self, text):
        reason = looks_secret(text, self.known_secrets)
        if reason:
            raise MemoryRefused(reason)
        key = key_of(text)
        record = {"op": "add", "id": new_id(), "key": key, "text": text, "at": time.time()}
        in_force = {m.key: m for m in live(self.records(), self.scope)}
        if key in in_force and in_force[key].text == text:
            return in_force[key], False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        with open(self.path, "ab") as handle:
            if handle.tell() > 0:
                with open(self.path, "rb") as reader:
                    reader.seek(-1, os.SEEK_END)
                    if reader.read(1) != b"\n":
                        line = b"\n" + line
            handle.write(line)
        return Memory(record["id"], key, text, record["at"], self.scope), True
