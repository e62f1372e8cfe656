"""The budget refuses a request when what was spent plus a guess at what the next request will
cost reaches it: the guess counts the whole history again (what was spent holds the earlier
input already), so a child stops while it is still under its budget (a hold-out class)."""
TARGET = "mca/agent/subagent.py"
FAILS = ('child-capped',)


class Budgeted:
    def stream(self, messages, tools=None):
        child = self.child
        upcoming = sum(estimate_tokens(str(m.get("content") or "")) for m in messages)  # what this request costs
        if child.spent + upcoming >= child.budget:
            child.over_budget = True
            raise GatewayError(f"the side task's token budget is spent ({child.spent} of {child.budget} tokens)")
        yield from child.model.stream(messages, tools)
