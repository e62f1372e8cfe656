"""E1: groups the matching rules by action and looks at deny, then ask, then allow."""
TARGET = "mca/tools/approval.py"
FAILS = ()


class Approver:
    def strictest(self, name, subject):
        by_action = {}
        for rule in self.rules:
            if rule.applies(name, subject):
                by_action.setdefault(rule.action, rule)
        for action in ("deny", "ask", "allow"):
            if action in by_action:
                return by_action[action]
        return None
