"""E4: a mutable default argument for the counts: every LoopGuard shares one dict, so a call made twice in
one turn is blocked the first time in the next."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def __init__(self, max_repeats=MAX_REPEATS, seen={}):
        self.max_repeats = max_repeats
        self.seen = seen

    def blocks(self, call):
        key = call.name + " " + json.dumps(call.args, sort_keys=True)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] > self.max_repeats
