"""E1: "with --yes there is nothing to decide": every call is allowed before the rules
are looked at, so --yes overrides a deny."""
TARGET = "mca/tools/approval.py"
FAILS = ("yes-never-overrides-deny",)


class Approver:
    def strictest(self, name, subject):
        if self.yes:
            return Rule("allow", name, "*", "--yes")
        found = [rule for rule in self.rules if rule.applies(name, subject)]
        return max(found, key=lambda rule: STRICTNESS[rule.action], default=None)
