"""child_tools() by sets: what reads or a rule allows, less task alone. todo, marked read-only,
stays with the child, bound to the parent's plan: a side task can rewrite the parent's todo
list (the sheet: never task or todo; until this version the corpus took it for correct)."""
TARGET = "mca/agent/subagent.py"
FAILS = ('no-recursion',)


def child_tools(tools, approver):
    allowed = {name for name in tools.names() if tools.is_read_only(name) or approver.allows(name)} - {TASK_TOOL}
    return ToolRegistry([tools.get(name) for name in tools.names() if name in allowed], tools.max_chars)
