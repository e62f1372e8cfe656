"""E1: matches a rule by the prefix before its first wildcard instead of rule.applies:
'deny run_command w *' is read as "starts with w", so 'wdir x' is denied, and an
exact pattern also catches the same command with more words."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)
MAYBE = ("denied-becomes-result", "turn-goes-on")


class Approver:
    def strictest(self, name, subject):
        found = []
        for rule in self.rules:
            stem = rule.match.split("*")[0].split("?")[0].rstrip()
            if fnmatch.fnmatchcase(name, rule.tool) and subject.startswith(stem):
                found.append(rule)
        return max(found, key=lambda rule: STRICTNESS[rule.action], default=None)
