"""Chat.maybe_compact compacts a history at the threshold too (">=": "the budget is reached"):
the sheet says over it. (Provided code, changed: a mistake a student who rewrites the trigger makes.)"""
TARGET = "mca/chat.py"
FAILS = ("triggers-over-budget",)


class Chat:
    def maybe_compact(self):
        size = context_tokens(self.history)
        if size >= self.agent.compact_at:
            self.screen.status(f"context: ≈ {size} tokens, at the threshold of {self.agent.compact_at}: compacting")
            self.compact()
