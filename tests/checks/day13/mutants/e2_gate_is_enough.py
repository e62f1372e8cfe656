"""child_tools() gives the subagent every tool but task and todo: "the approval gate asks
before any write anyway". Under --yes nobody is asked, and the subagent writes."""
TARGET = "mca/agent/subagent.py"
FAILS = ("read-only-by-default",)


def child_tools(tools, approver):
    return ToolRegistry([tools.get(name) for name in tools.names() if name not in PARENT_ONLY], tools.max_chars)
