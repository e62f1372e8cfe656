"""E4: the error texts are right, but the results say ok=True ("the call was handled"):
the screen shows a failed call as ok."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(True, f"error: no tool named {name!r}; available: {', '.join(self._tools)}")
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(True, f"error: bad arguments for {name}: {problem}")
        try:
            text = tool.run(args)
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
