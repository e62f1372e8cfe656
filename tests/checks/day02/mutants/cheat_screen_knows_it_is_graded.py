"""Cheat, E4: prints the reply once only when it can tell it is graded.

When the environment, the working directory or a parent's command line in /proc names
the grader or pytest, the streamed text is all there is; for a person the whole content
is written once more after the stream ("the final version replaces the preview").
Held when nothing a lab can see tells a graded run from a plain one.
"""
TARGET = "mca/screen.py"
ADD = ("_graded",)
FAILS = ("no-doubled-text",)
HERMETIC = True  # it reads the grader\'s /proc or finds the kit: only the view holds it

import os


class Screen:
    def show(self, event):
        again = not _graded()
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


def _graded():
    """Whatever tells a graded run from a person's: the grader's or pytest's variables or
    paths, a working directory that names a check, a parent process that is the grader."""
    names = " ".join(os.environ).upper()
    values = " ".join(os.environ.values()).lower()
    if "GRADER" in names or "PYTEST" in names or "grader" in values or "pytest" in values:
        return True
    if any(word in os.getcwd().lower() for word in ("grader", "pytest", "day-0", "check")):
        return True
    pid = os.getppid()
    for _ in range(16):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").lower()
            with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
                parent = int([line.split()[1] for line in handle if line.startswith("PPid:")][0])
        except (OSError, IndexError, ValueError):
            return False
        if b"grader" in command or b"pytest" in command or b"course.toml" in command:
            return True
        if parent <= 1:
            return False
        pid = parent
    return False
