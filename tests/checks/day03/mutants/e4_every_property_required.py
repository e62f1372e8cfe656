"""E4: treats every property of the schema as required: list_dir and grep without
their optional path are refused although they are good calls."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(False, f"error: no tool named {name!r}; available: {', '.join(self._tools)}")
        for key in tool.parameters.get("properties", {}):
            if key not in args:
                return ToolResult(False, f"error: bad arguments for {name}: missing {key!r}")
        problem = check_args(tool.parameters, args)
        if problem:
            return ToolResult(False, f"error: bad arguments for {name}: {problem}")
        try:
            text = tool.run(args)
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
