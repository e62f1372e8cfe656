"""restore_instructions reads the log's first line itself with json, and writes its note
one file per line."""
TARGET = "mca/chat.py"

import json


class Chat:
    def restore_instructions(self):
        with open(self.log.path, encoding="utf-8") as handle:
            head = handle.readline()
        try:
            record = json.loads(head).get("instructions")
        except (ValueError, AttributeError):
            record = None
        frozen = Instructions.from_record(record)
        self.instructions = frozen if frozen is not None else Instructions()
        if frozen is None:
            return
        message = frozen.message()
        if message is not None:
            self.history[1:1] = [message]
        for note in changed_files(frozen, self.agent.workdir):
            self.screen.status(f"note: {note} since the session started; this session keeps its first text")
