"""E4: blocks when the count is exactly three: the fourth repeat runs again."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        key = call.name + " " + json.dumps(call.args, sort_keys=True)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] == self.max_repeats + 1
