"""Resuming an id that does not exist quietly starts a new session instead of
refusing (every other resume problem is still reported)."""
TARGET = "mca/chat.py"
FAILS = ("model-frozen", "resume-unknown-id")

from .session.ids import session_path
from .session.resume import ResumeError


class Chat:
    def resume(self, session_id=None):
        try:
            resumed = resume(self.sessions_dir, session_id)
        except ResumeError:
            if session_id and not session_path(self.sessions_dir, session_id).exists():
                self.start_new()
                return None
            raise
        self.close()
        self.log, self.session_id = resumed.log, resumed.session_id
        self.recorder = SessionRecorder(resumed.log)
        self.history = list(resumed.messages)
        self.screen.status(f"resumed {resumed.session_id}: {resumed.replayed} messages restored")
        for note in resumed.notes:
            self.screen.status(f"  {note}")
        return resumed
