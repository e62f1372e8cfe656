"""E4 that asks forgiveness for the lookup and checks each argument itself, with its own
wording."""
TARGET = "mca/tools/registry.py"
FAILS = ()


class ToolRegistry:
    def run(self, name, args):
        try:
            tool = self._tools[name]
        except KeyError:
            return ToolResult(False, f"error: there is no tool {name}. Tools: {sorted(self._tools)}")
        schema = tool.parameters
        for key in schema.get("required", []):
            if key not in args:
                return ToolResult(False, f"error: {name} needs {key}, which is missing")
        for key, value in args.items():
            spec = schema.get("properties", {}).get(key)
            if spec is None:
                return ToolResult(False, f"error: {name} takes no argument {key}")
            if spec.get("type") == "string" and not isinstance(value, str):
                return ToolResult(False, f"error: {key} should be text, got {type(value).__name__}")
        try:
            text = tool.run(args)
        except ToolError as exc:
            return ToolResult(False, f"error: {exc}")
        text, truncated = truncate(text, self.max_chars)
        return ToolResult(True, text, truncated)
