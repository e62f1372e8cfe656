"""child_tools() leaves out the write tools by name: write_file, edit_file and run_command. The
list misses remember (day 10's tool writes a file too), so a subagent can still write."""
TARGET = "mca/agent/subagent.py"
FAILS = ("read-only-by-default",)


def child_tools(tools, approver):
    keep = [tools.get(name) for name in tools.names()
            if name not in PARENT_ONLY and (name not in ("write_file", "edit_file", "run_command") or approver.allows(name))]
    return ToolRegistry(keep, tools.max_chars)
