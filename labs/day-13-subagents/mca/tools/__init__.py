"""What the model may do: read, write and run things inside one workdir."""

from .base import Tool, ToolError, ToolResult
from .registry import ToolRegistry, default_tools

__all__ = ["Tool", "ToolError", "ToolRegistry", "ToolResult", "default_tools"]
