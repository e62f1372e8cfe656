"""E5: puts the error in the text but reports ok: the screen (and a log) shows a tool that worked."""
TARGET = "mca/tools/registry.py"
FAILS = ("tool-error-fed-back",)


class ToolRegistry:
    def failed(self, name, exc):
        return ToolResult(True, f"error: {name} failed: {type(exc).__name__}: {exc}")
