"""E1: sorts the rules strictest first (a stable sort) and returns the first that
matches: the written order matters only between rules of the same action."""
TARGET = "mca/tools/approval.py"
FAILS = ()


class Approver:
    def strictest(self, name, subject):
        for rule in sorted(self.rules, key=lambda rule: STRICTNESS[rule.action], reverse=True):
            if rule.applies(name, subject):
                return rule
        return None
