"""child_tools() takes --yes as the user's consent to writes: under --yes the subagent gets
every write tool, without a rule allowing one."""
TARGET = "mca/agent/subagent.py"
FAILS = ("read-only-by-default",)


def child_tools(tools, approver):
    kept = []
    for name in tools.names():
        tool = tools.get(name)
        if name in PARENT_ONLY:
            continue
        if tool.read_only or approver.yes or approver.allows(name):
            kept.append(tool)
    return ToolRegistry(kept, tools.max_chars)
