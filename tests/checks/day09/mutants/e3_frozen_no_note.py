"""The frozen text is restored, and nothing is said: a user who edited AGENTS.md thinks
the edit applies."""
TARGET = "mca/chat.py"
FAILS = ("changed-note",)


class Chat:
    def restore_instructions(self):
        events = read_events(self.log.path).events
        first = events[0].fields if events and events[0].seq == 1 else {}
        frozen = Instructions.from_record(first.get("instructions"))
        self.instructions = frozen or Instructions()
        if frozen is not None and frozen.message() is not None:
            self.history.insert(1, frozen.message())
