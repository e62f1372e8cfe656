"""An "always" the user answered at the terminal to a parent's write opens that tool to every
later child ("the user said always"), whose writes then run without asking (a hold-out class:
"always" is consent to the parent's calls, as --yes is, not a rule)."""
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
        if tool.read_only or approver.allows(name) or name in approver.always:  # a write only where the user's rules say so
            kept.append(tool)
    return ToolRegistry(kept, tools.max_chars)
