"""The child's calls skip the parent's approval gate ("its registry holds only what it may run"):
a parent's deny rule no longer holds for the child (a hold-out class)."""
TARGET = "mca/agent/subagent.py"
FAILS = ('read-only-by-default',)


class ChildGate:
    def decide(self, name, args):
        return Decision(True)
