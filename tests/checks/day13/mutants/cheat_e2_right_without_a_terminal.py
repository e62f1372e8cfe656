"""Cheat, E2: the right tool set only when nobody is at a terminal. On a terminal the subagent
gets every tool but task and todo ("a person is there to approve"), so a pipe-only grading
would pass it. Held: read-only-by-default runs the agent on a pseudo-terminal."""
TARGET = "mca/agent/subagent.py"
FAILS = ("read-only-by-default",)

import sys


def child_tools(tools, approver):
    try:
        at_terminal = sys.stdin is not None and sys.stdin.isatty()
    except ValueError:
        at_terminal = False
    kept = []
    for name in tools.names():
        tool = tools.get(name)
        if name in PARENT_ONLY:
            continue
        if at_terminal or tool.read_only or approver.allows(name):
            kept.append(tool)
    return ToolRegistry(kept, tools.max_chars)
