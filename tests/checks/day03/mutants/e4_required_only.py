"""E4: an unknown tool and a missing argument become results, but types are not
checked: a number where the path goes reaches the tool and raises TypeError."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(False, f"error: no tool named {name!r}; available: {', '.join(self._tools)}")
        for required in tool.parameters.get("required", []):
            if required not in args:
                return ToolResult(False, f"error: {name} needs the argument {required!r}")
        try:
            text = tool.run(args)
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
