"""Restores the frozen text and, to be safe, always warns that the files may have
changed, naming them all, even when nothing did."""
TARGET = "mca/chat.py"
FAILS = ("changed-note",)


class Chat:
    def restore_instructions(self):
        events = read_events(self.log.path).events
        first = events[0].fields if events and events[0].seq == 1 else {}
        frozen = Instructions.from_record(first.get("instructions"))
        self.instructions = frozen or Instructions()
        if frozen is None:
            return
        if frozen.message() is not None:
            self.history.insert(1, frozen.message())
        changes = changed_files(frozen, self.agent.workdir)
        listed = ", ".join(f["path"] for f in frozen.files)
        self.screen.status(f"note: using the instructions frozen at the start ({listed}); they may have changed")
        if changes:
            self.screen.status("note: " + "; ".join(changes))
