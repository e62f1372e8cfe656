"""child_tools() keeps the read-only tools only, whatever the rules say: a rule that allows
write_file outright does not reach the subagent."""
TARGET = "mca/agent/subagent.py"
FAILS = ("read-only-by-default",)


def child_tools(tools, approver):
    return ToolRegistry([tools.get(name) for name in tools.names()
                         if name not in PARENT_ONLY and tools.get(name).read_only], tools.max_chars)
