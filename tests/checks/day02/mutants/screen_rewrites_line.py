r"""E4: at the message, returns to the start of the line ("\r") and writes the whole reply,
to replace the streamed pieces with the final text.

On a terminal, for a one-line reply, nobody can tell. In a file or a pipe the text is
there twice, and a reply longer than one screen line is garbled on the terminal too.
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
            if message.get("content"):
                self.out.write("\r" + message["content"] + "\n")
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
