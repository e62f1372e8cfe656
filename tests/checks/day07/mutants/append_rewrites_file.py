"""SessionLog.append reads the whole file and writes it back with the new line (a
snapshot in disguise): right content, whole-file cost per event."""
TARGET = "mca/session/log.py"
FAILS = ("append-is-incremental",)


class SessionLog:
    def append(self, type, **fields):
        if self._fd is None:
            raise SessionError(f"session {self.session_id} is closed")
        event = Event(self.next_seq, utc_timestamp(), type, fields)
        line = (json.dumps(event.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
        with open(self.path, "rb") as handle:
            old = handle.read()
        with open(self.path, "wb") as handle:
            handle.write(old + line)
        self.next_seq += 1
        return event
