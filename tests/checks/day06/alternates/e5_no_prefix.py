"""E5 with the exception's text as it is, without the `error:` the kit's own results start
with: `read_file: FileNotFoundError: ...` reads as a failure to the model all the same (it
is not ok, and it names what went wrong)."""
TARGET = "mca/tools/registry.py"
FAILS = ()


class ToolRegistry:
    def failed(self, name, exc):
        return ToolResult(False, f"{name}: {type(exc).__name__}: {exc}")
