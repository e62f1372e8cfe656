"""E1: "later rules override earlier ones", as in many config files: the last match
decides, so a deny written before a broad allow loses."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)


class Approver:
    def strictest(self, name, subject):
        chosen = None
        for rule in self.rules:
            if rule.applies(name, subject):
                chosen = rule
        return chosen
