"""E4: the key is the tool and the path it works on: two searches for different patterns in one directory count as one call."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        key = (call.name, call.args.get("path") or call.args.get("command"))
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] > self.max_repeats
