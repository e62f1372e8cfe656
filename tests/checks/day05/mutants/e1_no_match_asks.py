"""E1: a call no rule matches is "unknown, so ask" - also for read-only tools, whose
default is allow."""
TARGET = "mca/tools/approval.py"
FAILS = ("read-only-auto", "deny-beats-allow", "denied-becomes-result")


class Approver:
    def strictest(self, name, subject):
        found = [rule for rule in self.rules if rule.applies(name, subject)]
        return max(found, key=lambda rule: STRICTNESS[rule.action], default=Rule("ask", name, "*", "no rule"))
