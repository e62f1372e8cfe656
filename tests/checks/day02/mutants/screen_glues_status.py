r"""E4: prints the text, and at the message a plain "\n" - but only when the message has
text, and without telling the screen that the line is closed.

The old screen's way. Piped into a file the reply looks right; on a terminal, where
stdout and stderr share one screen, the tokens line lands right after the text, on
the same line, and a message without text never ends its line at all.
"""
TARGET = "mca/screen.py"
FAILS = ("layers-apart",)


class Screen:
    def show(self, event):
        if isinstance(event, TextDelta):
            self.out.write(event.text)
            self.out.flush()
        elif isinstance(event, MessageAdded):
            message = event.message
            if message.get("role") != "assistant":
                return
            if message.get("content"):
                self.out.write("\n")
                self.out.flush()
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
