"""Typing into the lab's REPL on a pseudo-terminal, and reading its screen back.

A person at a terminal types a line only once the REPL has asked for it (its prompt is on
the screen), and the terminal echoes what was typed after that prompt and ends every line
with CR LF. `type_lines` types that way into a child started with `tty=True`; `screen`
reads what the child printed back with LF line ends and the echo after each prompt taken
off (so a line the check typed is never read as the agent's).
Day 1's REPL checks and `turns.run_turn(..., tty=True, typed=...)` both type through here.
"""

from __future__ import annotations

import time
from typing import Callable

from grader.checkkit.waiting import wait_until
from grader.spawn import scaled

PROMPT = "you > "   # what the REPL prints before it reads each line
STEP_TIMEOUT = 15   # seconds for the REPL to come back with a prompt (the mock answers at once)
SETTLE = 1.0        # after the last line: how long to wait for its answer's prompt before Ctrl-D


def prompts(child, prompt: str = PROMPT) -> int:
    """How many prompts the child has shown so far."""
    return child.stdout_so_far().count(prompt)


def type_lines(child, lines: list[str], *, prompt: str = PROMPT, step: float = STEP_TIMEOUT,
               deadline: float | None = None, answer: Callable[[str], str] | None = None,
               question: str | None = None) -> int:
    """Type each of `lines` at its prompt (line k once k prompts are on the screen), none once
    the REPL has ended or stops prompting, then Ctrl-D (end of input, which a REPL that left
    on /exit never reads). `step`: seconds to wait for each prompt (scaled); `deadline`: a
    `time.monotonic()` none of the waits goes past. `question` and `answer`: while waiting, each
    line of the screen that asks (holds `question`, such as `[y/N]`) gets `answer(that line)` typed,
    once. Returns how many lines were typed."""
    asked = 0

    def answered() -> None:  # the questions on the screen that have no answer yet get theirs
        nonlocal asked
        if answer is None or not question:
            return
        for line in asking(child.stdout_so_far().replace("\r", ""), question)[asked:]:
            child.send(answer(line) + "\n")
            asked += 1

    def wait(predicate, seconds: float) -> None:
        limit = scaled(seconds)
        if deadline is not None:
            limit = max(0.0, min(limit, deadline - time.monotonic()))
        wait_until(lambda: (answered(), predicate())[1], limit)

    typed = 0
    for number, line in enumerate(lines, 1):
        wait(lambda: prompts(child, prompt) >= number or not child.running(), step)
        if prompts(child, prompt) < number or not child.running():
            break
        child.send(line + "\n")
        typed += 1
    else:  # the answer to the last line, up to the next prompt (or the end)
        wait(lambda: prompts(child, prompt) > len(lines) or not child.running(), SETTLE)
    child.close_stdin()
    return typed


def asking(screen: str, question: str) -> list[str]:
    """Each line of `screen` that asks (holds `question`), up to the mark: what was asked."""
    found, start = [], screen.find(question)
    while start >= 0:
        found.append(screen[screen.rfind("\n", 0, start) + 1:start + len(question)].strip())
        start = screen.find(question, start + len(question))
    return found


def screen(text: str, prompt: str = PROMPT) -> str:
    """What a child on a pseudo-terminal printed: CR LF read as LF, and after each prompt the
    terminal's echo of the line typed there taken off (its line end kept, so the prompt stays a
    line of its own and what the REPL printed next starts a line, as on the screen). Text
    without a prompt (a one-shot run) only has its line ends changed."""
    parts = text.replace("\r\n", "\n").split(prompt)
    return prompt.join(parts[:1] + [part[part.index("\n"):] if "\n" in part else "" for part in parts[1:]])
