"""E4: counts calls by tool name: the third read_file of a turn is blocked, whatever file it reads."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        self.seen[call.name] = self.seen.get(call.name, 0) + 1
        return self.seen[call.name] > self.max_repeats
