"""E3: looks in the session's "always" memory before the rules, to save the lookup: after
'always' for rm (a plain ask), 'rm -rf build' runs, and a deny rule for that program
never gets a say."""
TARGET = "mca/tools/approval.py"
FAILS = ("always-remembered",)


class Approver:
    def decide(self, name, args):
        if kind_of(name, args) in self.always:
            return Decision(True)
        action, rule = self.rule_for(name, args)
        because = f" (rule: {rule})" if rule else ""
        if action == "allow":
            return Decision(True)
        if action == "deny":
            return Decision(False, f"denied: {describe_call(name, args)} is not allowed{because}")
        if self.yes:
            return Decision(True)
        if self.ask is None:
            return Decision(False, f"denied: {describe_call(name, args)} needs approval and there is no one to "
                                   "ask (not a terminal; run with --yes to approve asks)")
        answer = self.ask(describe_call(name, args)).strip().lower()
        if answer in ("a", "always"):
            self.always.add(kind_of(name, args))
            return Decision(True)
        if answer in ("y", "yes"):
            return Decision(True)
        return Decision(False, f"denied: the user did not approve {describe_call(name, args)}")
