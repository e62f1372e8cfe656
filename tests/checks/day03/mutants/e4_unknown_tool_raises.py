"""E4: checks the arguments, but looks the tool up with [] - a made-up tool name is a
KeyError that ends the turn."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
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
