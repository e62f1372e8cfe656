"""E5: "the caller should decide": the exception is raised again, and the turn (and the program) ends."""
TARGET = "mca/tools/registry.py"
FAILS = ("tool-error-fed-back",)


class ToolRegistry:
    def failed(self, name, exc):
        raise exc
