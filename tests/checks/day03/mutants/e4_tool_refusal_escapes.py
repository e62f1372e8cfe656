"""E4: the whole of run written in one go - the unknown tool and the bad arguments become
error results, but the tool itself is called bare ("the tools check their own inputs"): a
tool's own refusal (a ToolError: a file listed as a folder, a pattern that is not a regular
expression, a path out of the workdir) escapes and ends the turn."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result", "path-escape-refused")


class ToolRegistry:
    def run(self, name, args):
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(False, f"error: no tool named {name!r}")
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(False, f"error: bad arguments for {name}: {problem}")
        text, truncated = truncate(tool.run(args), self.max_chars)
        return ToolResult(True, text, truncated)
