# [day 3+]
# [day 3]
"""What the model may do: read things inside one workdir."""
# [or day 4+]
"""What the model may do: read, write and run things inside one workdir."""
# [/day]

from .base import Tool, ToolError, ToolResult
from .registry import ToolRegistry, default_tools

__all__ = ["Tool", "ToolError", "ToolRegistry", "ToolResult", "default_tools"]
# [/day]
