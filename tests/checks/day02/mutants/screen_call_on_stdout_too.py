"""E4: prints the text once, and under it, on stdout, a line for each tool call the
message carries ("so the reader sees what the model is about to do"), besides the
status line on stderr.

Nothing is printed twice, but `python -m mca "..." > answer.txt` now captures a line
about the agent along with the answer.
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
            self.end_line()
            for call in message.get("tool_calls") or []:
                self.out.write(f"-> {call['name']}\n")
                self.out.flush()
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
