"""E4: says "unknown tool" without saying which: a model that made up a name cannot
tell which of its calls was wrong, nor what exists instead."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(False, "error: unknown tool")
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(False, f"error: bad arguments for {name}: {problem}")
        try:
            text = tool.run(args)
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
