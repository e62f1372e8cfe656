"""E4: the screen also accepts the gateway's StreamDelta, "to be safe", importing it
from mca.gateway.base.

Nothing looks wrong today; but the screen now depends on the gateway, and every
change to what the gateway streams can break what the person sees. The renderer
listens to agent events only.
"""
TARGET = "mca/screen.py"
FAILS = ("layers-apart",)

from .gateway.base import StreamDelta


class Screen:
    def show(self, event):
        if isinstance(event, StreamDelta):
            event = TextDelta(event.text) if event.text else None
            if event is None:
                return
        if isinstance(event, TextDelta):
            self.out.write(event.text)
            self.out.flush()
            self.line_open = not event.text.endswith("\n")
        elif isinstance(event, MessageAdded):
            message = event.message
            if message.get("role") != "assistant":
                return
            self.end_line()
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
