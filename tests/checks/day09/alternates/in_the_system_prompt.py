"""The instructions appended to the system prompt itself (one system message) instead of
a message of their own: the first event's message then carries them, replay brings them
back, and resume only compares the files."""
TARGET = "mca/chat.py"


class Chat:
    def start_instructions(self):
        instructions = load_instructions(self.agent.workdir)
        if instructions.text:
            self.history[0] = {"role": "system",
                               "content": self.history[0]["content"] + "\n\n" + instructions.text}
        return instructions

    def restore_instructions(self):
        events = read_events(self.log.path).events
        first = events[0].fields if events and events[0].seq == 1 else {}
        frozen = Instructions.from_record(first.get("instructions"))
        self.instructions = frozen or Instructions()
        if frozen is None:
            return
        notes = changed_files(frozen, self.agent.workdir)
        if notes:
            self.screen.status("note: the project's AGENTS.md files differ from this session's: " + ", ".join(notes))
