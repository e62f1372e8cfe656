"""A correct E4 written differently: ends the open line only when the message has text,
and says so inline instead of calling end_line.
"""
TARGET = "mca/screen.py"
FAILS = ()


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
            if message.get("content") and self.line_open:
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
