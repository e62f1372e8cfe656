"""On resume the files are read again and sent as they are now, with an honest note of
what changed: the note is right, but the session no longer sends what it started with."""
TARGET = "mca/chat.py"
FAILS = ("frozen-on-resume",)


class Chat:
    def restore_instructions(self):
        events = read_events(self.log.path).events
        first = events[0].fields if events and events[0].seq == 1 else {}
        frozen = Instructions.from_record(first.get("instructions"))
        self.instructions = load_instructions(self.agent.workdir)
        if self.instructions.message() is not None:
            self.history.insert(1, self.instructions.message())
        changes = changed_files(frozen, self.agent.workdir) if frozen else []
        if changes:
            self.screen.status("note: instruction files changed since this session started: " + "; ".join(changes))
