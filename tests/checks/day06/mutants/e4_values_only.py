"""E4: the key is the call's name and its sorted argument values, without their names: an edit and its undo count as one call."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        key = call.name + " " + json.dumps(sorted(str(value) for value in call.args.values()))
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] > self.max_repeats
