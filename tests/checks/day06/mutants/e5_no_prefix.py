"""E5: the exception's text, as it is, without the `error:` every other failed result starts with."""
TARGET = "mca/tools/registry.py"
FAILS = ("tool-error-fed-back",)


class ToolRegistry:
    def failed(self, name, exc):
        return ToolResult(False, f"{name}: {type(exc).__name__}: {exc}")
