"""child_tools() keeps every read-only tool and the writes a rule allows; it leaves out todo
(the plan is the parent's) but keeps task, which is marked read-only too: a subagent can
start subagents."""
TARGET = "mca/agent/subagent.py"
FAILS = ("no-recursion",)


def child_tools(tools, approver):
    kept = []
    for name in tools.names():
        tool = tools.get(name)
        if name == TODO_TOOL:
            continue
        if tool.read_only or approver.allows(name):
            kept.append(tool)
    return ToolRegistry(kept, tools.max_chars)
