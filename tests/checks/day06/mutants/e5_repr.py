"""E5: repr(exc) "because it is more precise": FileNotFoundError(2, 'No such file or directory') has lost the path."""
TARGET = "mca/tools/registry.py"
FAILS = ("tool-error-fed-back",)


class ToolRegistry:
    def failed(self, name, exc):
        return ToolResult(False, f"error: {exc!r}")
