"""E4: prints the text once as it streams, and again at the message when the message also
carries tool calls ("say what the model said before its call").

A plain reply is right; a reply that says a sentence and asks for a tool shows the
sentence twice.
"""
TARGET = "mca/screen.py"
FAILS = ("no-doubled-text",)


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
            self.end_line()
            if message.get("tool_calls") and message.get("content"):
                self.out.write(message["content"] + "\n")
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
