"""E4: the key is the arguments alone: read_file and list_dir on the same path count as one call."""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


class LoopGuard:
    def blocks(self, call):
        key = json.dumps(call.args, sort_keys=True)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] > self.max_repeats
