"""E4: ignores the TextDeltas and prints the reply when its message arrives, once.

Printed exactly once - and only when the reply is complete: the screen undoes the
streaming that the gateway and the loop do.
"""
TARGET = "mca/screen.py"
FAILS = ("streams-before-done", "layers-apart")


class Screen:
    def show(self, event):
        if isinstance(event, TextDelta):
            return  # the whole text comes with the message
        elif isinstance(event, MessageAdded):
            message = event.message
            if message.get("role") != "assistant":
                return
            if message.get("content"):
                self.out.write(message["content"] + "\n")
                self.out.flush()
            for call in message.get("tool_calls") or []:
                args = json.dumps(call["args"], ensure_ascii=False)
                self.status(f"  (the model asked for {call['name']}({args}); no tool can run yet)")
        elif isinstance(event, UsageReported):
            self.status(f"  tokens: {event.input_tokens} in, {event.output_tokens} out")
        elif isinstance(event, ErrorOccurred):
            self.errors += event.where == "gateway"
            self.status(f"error ({event.where}): {event.message}")
