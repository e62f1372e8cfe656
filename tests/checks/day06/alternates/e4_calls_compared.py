"""E4 with a list of the turn's calls: a call is counted by comparing (name, arguments) with the earlier ones; dicts compare whatever their key order."""
TARGET = "mca/agent/loop.py"
FAILS = ()


class LoopGuard:
    def blocks(self, call):
        made = getattr(self, "made", None)
        if made is None:
            made = self.made = []
        made.append((call.name, call.args))
        return made.count((call.name, call.args)) > self.max_repeats
