"""E4 with a list of keys: the call's name and its arguments as canonical JSON, counted when it comes again."""
TARGET = "mca/agent/loop.py"
FAILS = ()


class LoopGuard:
    def __init__(self, max_repeats=MAX_REPEATS):
        self.max_repeats = max_repeats
        self.seen = []

    def blocks(self, call):
        key = (call.name, json.dumps(call.args, sort_keys=True, ensure_ascii=False, separators=(",", ":")))
        self.seen.append(key)
        return self.seen.count(key) > self.max_repeats
