"""E4: no checks at all, one `except Exception` around the tool: nothing raises, but
the model reads Python's own words ("unsupported operand type(s) for /: 'PosixPath'
and 'int'") that never say which argument was wrong."""
TARGET = "mca/tools/registry.py"
FAILS = ("bad-args-become-result",)


class ToolRegistry:
    def run(self, name, args):
        try:
            text = self._tools[name].run(args)
        except KeyError as exc:
            return ToolResult(False, f"error: {name}: missing {exc}" if name in self._tools
                              else f"error: no tool named {name!r}")
        except Exception as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
