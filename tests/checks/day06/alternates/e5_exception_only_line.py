"""E5 with traceback.format_exception_only: the exception's last line, the tool's name after it."""
TARGET = "mca/tools/registry.py"
FAILS = ()

import traceback


class ToolRegistry:
    def failed(self, name, exc):
        line = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return ToolResult(ok=False, content=f"error: {line} (in {name})")
