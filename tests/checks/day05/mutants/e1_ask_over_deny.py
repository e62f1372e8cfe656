"""E1: ranks the actions in the order the prompt lists them (allow, deny, ask), so a
matching ask rule beats a matching deny: the user is asked about what a rule forbids."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)


class Approver:
    def strictest(self, name, subject):
        rank = {"allow": 0, "deny": 1, "ask": 2}
        found = [rule for rule in self.rules if rule.applies(name, subject)]
        return max(found, key=lambda rule: rank[rule.action], default=None)
