"""E1: looks for a deny first, then takes the first match: deny beats the rest, but an
allow written before an ask still wins."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)


class Approver:
    def strictest(self, name, subject):
        found = [rule for rule in self.rules if rule.applies(name, subject)]
        for rule in found:
            if rule.action == "deny":
                return rule
        return found[0] if found else None
