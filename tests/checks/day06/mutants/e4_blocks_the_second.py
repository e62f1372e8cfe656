"""E4: `>=` for `>`: the same call is blocked the second time, not the third."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        key = call.name + " " + json.dumps(call.args, sort_keys=True)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] >= self.max_repeats
