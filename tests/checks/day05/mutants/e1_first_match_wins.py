"""E1: the first rule that matches decides, written with next() - tidy, and a broad
allow written before a deny wins."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)


class Approver:
    def strictest(self, name, subject):
        return next((rule for rule in self.rules if rule.applies(name, subject)), None)
