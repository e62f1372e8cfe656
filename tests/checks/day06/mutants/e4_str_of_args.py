"""E4: the key is str(args): the same arguments with their keys in another order look like a new call."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        key = f"{call.name} {call.args}"
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] > self.max_repeats
