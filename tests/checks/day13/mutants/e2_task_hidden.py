"""child_tools() hides task from what the subagent's model is offered ("it cannot call what it
is not shown"), but the registry still runs it: a task call the model makes anyway starts a
subagent."""
TARGET = "mca/agent/subagent.py"
ADD = ("_Offered",)
FAILS = ("no-recursion",)


def child_tools(tools, approver):
    kept = [tools.get(name) for name in tools.names()
            if name != TODO_TOOL and (tools.get(name).read_only or approver.allows(name))]
    return _Offered(kept, tools.max_chars)


class _Offered(ToolRegistry):
    """A registry whose schemas leave out the tools of PARENT_ONLY."""

    def schemas(self):
        return [schema for schema in super().schemas() if schema["name"] not in PARENT_ONLY]
