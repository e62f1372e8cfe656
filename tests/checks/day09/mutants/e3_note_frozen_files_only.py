"""Restores the frozen text and compares each frozen file with the disk, but never looks
for files that are new since: an AGENTS.md added in between goes unmentioned."""
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
        notes = [n for n in changed_files(frozen, self.agent.workdir) if not n.endswith(" is new")]
        if notes:
            self.screen.status("note: instruction files changed since this session started: " + "; ".join(notes))
