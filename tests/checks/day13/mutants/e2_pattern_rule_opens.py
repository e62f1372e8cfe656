"""Any allow rule for a tool gives the child that tool, one with a pattern too: with
`allow write_file notes/*` the child gets write_file, and under --yes writes anywhere (a
hold-out class: "outright" means a rule for every path)."""
TARGET = "mca/agent/subagent.py"
FAILS = ('read-only-by-default',)


def child_tools(tools: ToolRegistry, approver: Approver) -> ToolRegistry:
    """The tools a side task gets from the parent's: what reads, what a rule of the parent
    allows outright, and never what belongs to the parent alone (PARENT_ONLY)."""
    kept = []
    for name in tools.names():
        tool = tools.get(name)
        if name in PARENT_ONLY:
            continue  # no task: a subagent starts no subagent; no todo: the plan is the parent's
        if tool.read_only or any(rule.action == "allow" and rule.applies(name, rule.match) for rule in approver.rules):  # a write only where the user's rules say so
            kept.append(tool)
    return ToolRegistry(kept, tools.max_chars)
