"""E4: checks the tool and its arguments well, runs it, and returns its text as it came:
ToolRegistry.run rewritten without the line that passed the text through truncate.

Every short result is right; a 200 KB file goes into the history whole, flagged as not
truncated, though truncate itself cuts correctly.
"""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result", "truncation-declared", "tail-kept")


class ToolRegistry:
    def run(self, name, args):
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(False, f"error: no tool named {name!r}; available: {', '.join(self._tools)}")
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(False, f"error: bad arguments for {name}: {problem}")
        try:
            return ToolResult(True, tool.run(args))
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
