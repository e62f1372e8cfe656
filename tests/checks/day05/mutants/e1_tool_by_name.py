"""E1: compares the rule's tool with the call's by name (or the catch-all '*') and only
the argument as a pattern, so 'deny *_file secrets/*' never matches write_file and a
broad allow lets the write through."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)


class Approver:
    def strictest(self, name, subject):
        found = [rule for rule in self.rules
                 if rule.tool in ("*", name) and fnmatch.fnmatchcase(subject, rule.match)]
        return max(found, key=lambda rule: STRICTNESS[rule.action], default=None)
