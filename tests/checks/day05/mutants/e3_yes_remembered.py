"""E3: treats 'y' and 'always' as the same approval and remembers both, so one 'y' to
'make deploy' lets every later make command run without a prompt."""
TARGET = "mca/tools/approval.py"
FAILS = ("always-remembered",)


class Approver:
    def decide(self, name, args):
        action, rule = self.rule_for(name, args)
        because = f" (rule: {rule})" if rule else ""
        if action == "allow":
            return Decision(True)
        if action == "deny":
            return Decision(False, f"denied: {describe_call(name, args)} is not allowed{because}")
        if self.yes or kind_of(name, args) in self.always:
            return Decision(True)
        if self.ask is None:
            return Decision(False, f"denied: {describe_call(name, args)} needs approval and there is no one to "
                                   "ask (not a terminal; run with --yes to approve asks)")
        answer = self.ask(describe_call(name, args)).strip().lower()
        if answer in ("a", "always", "y", "yes"):
            self.always.add(kind_of(name, args))
            return Decision(True)
        return Decision(False, f"denied: the user did not approve {describe_call(name, args)}")
