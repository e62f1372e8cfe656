"""E4: raises ToolError for an unknown tool ("ToolErrors become results") - but outside
the try that turns them into results, so it escapes the registry."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
        if name not in self._tools:
            raise ToolError(f"no tool named {name!r}")
        tool = self._tools[name]
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(False, f"error: bad arguments for {name}: {problem}")
        try:
            text = tool.run(args)
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
