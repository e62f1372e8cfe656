"""E4: writes each TextDelta to stdout without flushing it.

Under `python -u` (or any unbuffered stdout) it looks right; run as a person runs it,
stdout is buffered (a terminal until the end of a line, a pipe for kilobytes), so the
streamed pieces sit in the buffer and the reply appears all at once at the end.
"""
TARGET = "mca/screen.py"
FAILS = ("streams-before-done",)


class Screen:
    def show(self, event):
        if isinstance(event, TextDelta):
            self.out.write(event.text)
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
