"""Cheat, E4: prints the reply once only when stdout is not a terminal.

Piped into a file or a grader, the reply is there once; at a person's terminal the
whole content is written once more after the stream. Held when the checks of what a
person sees give the agent a pseudo-terminal, as a person's shell does.
"""
TARGET = "mca/screen.py"
FAILS = ("no-doubled-text",)


class Screen:
    def show(self, event):
        again = self.out.isatty()
        if isinstance(event, TextDelta):
            self.out.write(event.text)
            self.out.flush()
            self.line_open = not event.text.endswith("\n")
        elif isinstance(event, MessageAdded):
            message = event.message
            if message.get("role") != "assistant":
                return
            self.end_line()
            if again and message.get("content"):
                self.out.write(message["content"])
                self.out.flush()
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
