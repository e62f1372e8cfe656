"""E5: says that the tool failed, and nothing of why: the model cannot tell a missing file from a binary one."""
TARGET = "mca/tools/registry.py"
FAILS = ("tool-error-fed-back",)


class ToolRegistry:
    def failed(self, name, exc):
        return ToolResult(False, f"error: {name} failed")
