r"""E4: writes "\n" for every assistant message, instead of ending the line only if it is open.

The tokens line has ended the text's line already, so every reply is followed by an
empty line, and a message without text (only tool calls) prints one too.
"""
TARGET = "mca/screen.py"
FAILS = ("no-doubled-text", "layers-apart")


class Screen:
    def show(self, event):
        if isinstance(event, TextDelta):
            self.out.write(event.text)
            self.out.flush()
            self.line_open = not event.text.endswith("\n")
        elif isinstance(event, MessageAdded):
            message = event.message
            if message.get("role") != "assistant":
                return
            self.out.write("\n")
            self.out.flush()
            self.line_open = False
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
