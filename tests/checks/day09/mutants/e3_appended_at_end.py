"""Restores the frozen message, but appends it to the replayed history instead of putting
it back after the system prompt: the resumed request is not the one the first process
sent."""
TARGET = "mca/chat.py"
FAILS = ("frozen-on-resume",)


class Chat:
    def restore_instructions(self):
        events = read_events(self.log.path).events
        first = events[0].fields if events and events[0].seq == 1 else {}
        frozen = Instructions.from_record(first.get("instructions"))
        self.instructions = frozen or Instructions()
        if frozen is None:
            return
        if frozen.message() is not None:
            self.history.append(frozen.message())
        changes = changed_files(frozen, self.agent.workdir)
        if changes:
            self.screen.status("note: instruction files changed since this session started: " + "; ".join(changes))
