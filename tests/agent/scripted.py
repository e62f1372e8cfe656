"""A gateway that plays back prepared streams, and the streams it plays (day 2+ shapes)."""

from __future__ import annotations

from mca.gateway.base import StreamDelta, ToolCallChunk


class Scripted:
    """A gateway that plays back prepared streams (or raises prepared errors), one per request."""

    def __init__(self, *replies) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict]] = []

    def stream(self, messages, tools=None):
        self.requests.append(messages)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        yield from reply


def text(words: str) -> list[StreamDelta]:
    return [StreamDelta(text=words), StreamDelta(finish="stop")]


def call(call_id: str, name: str, args_json: str, index: int = 0) -> list[StreamDelta]:
    """A tool call streamed the way providers do: id and name first, then argument fragments."""
    middle = len(args_json) // 2
    return [StreamDelta(tool_call=ToolCallChunk(index, id=call_id, name=name)),
            StreamDelta(tool_call=ToolCallChunk(index, args=args_json[:middle])),
            StreamDelta(tool_call=ToolCallChunk(index, args=args_json[middle:])),
            StreamDelta(finish="tool_calls")]
