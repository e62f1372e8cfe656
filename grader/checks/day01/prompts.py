"""Day 01: talking to the lab's REPL - through a pipe, as a script would, or step by step
with a running child (for Ctrl-C and the end of input).

The REPL prints `you > ` before it reads each line; with a pipe nothing is echoed, so
whatever stands between two prompts is exactly what the REPL printed for the line
read at the first of them. On a pseudo-terminal (as a person runs it: `Live(...,
terminal=True)`) the terminal echoes each typed line after its prompt, and ends lines
with CR LF: the echo is taken off and the line ends read as LF (the check kit's
terminal.py, which also types the lines, each at its prompt).
"""

from __future__ import annotations

import signal
import time

from grader.checkkit import CheckFailed, ChildTimeout, wait_until
from grader.checkkit.terminal import PROMPT, STEP_TIMEOUT, screen, type_lines

SETTLE = 0.2        # after a prompt shows, let the child get back into its read before a signal
RETRY_AFTER = 3     # seconds without a new prompt after Ctrl-C before it is sent once more


def answers(stdout: str) -> list[str]:
    """What the REPL printed after each prompt, up to the next one (stripped)."""
    return [part.strip() for part in stdout.split(PROMPT)[1:]]


def talk(ctx, lines: list[str], label: str, **options):
    """Pipe `lines` into the REPL (`python -m mca`, no prompt argument) and wait for it to end."""
    return ctx.run_agent(cwd=ctx.workspace(label), input="".join(line + "\n" for line in lines), **options)


def converse(ctx, lines: list[str], label: str, timeout: float = 30, **options):
    """Type `lines` into the REPL on a pseudo-terminal, as a person at a terminal does: each
    one at its prompt (none once the REPL has ended or stopped prompting), then Ctrl-D.
    The finished child and what the REPL printed after each prompt (the echo taken off)."""
    with ctx.start_agent(cwd=ctx.workspace(label), tty=True, **options) as child:
        live = Live(ctx, child, terminal=True)
        type_lines(child, lines)
        result = child.wait(timeout)
    return result, live.said()


class Live:
    """A REPL child driven one step at a time."""

    def __init__(self, ctx, child, terminal: bool = False):
        self.ctx, self.child, self.terminal = ctx, child, terminal

    def prompts(self) -> int:
        return self.child.stdout_so_far().count(PROMPT)

    def _parts(self) -> list[str]:
        printed = self.child.stdout_so_far()
        # on a terminal, after each prompt the terminal first echoes the line typed there
        return (screen(printed) if self.terminal else printed).split(PROMPT)

    def after(self, prompt: int) -> str:
        """What the REPL printed after its prompt number `prompt` (1-based), so far."""
        parts = self._parts()
        return parts[prompt].strip() if len(parts) > prompt else ""

    def said(self) -> list[str]:
        """What the REPL printed after each of its prompts so far (stripped), as `answers` reads a pipe."""
        return [part.strip() for part in self._parts()[1:]]

    def between(self, first: int, last: int) -> str:
        """Everything printed after prompt `first` and before prompt `last`."""
        parts = self._parts()
        return "".join(parts[first:last]).strip()

    def expect_prompt(self, count: int, doing: str) -> None:
        """Wait until the REPL has shown `count` prompts; fail if it ended or never did."""
        child = self.child
        wait_until(lambda: self.prompts() >= count or not child.running(), self.ctx.scaled(STEP_TIMEOUT))
        if self.prompts() >= count:
            return
        if child.running():
            raise CheckFailed(self.ctx.say("edges.no_prompt", doing=doing, seconds=STEP_TIMEOUT))
        result = child.wait(5)
        raise CheckFailed(self.ctx.say("edges.ended", doing=doing, status=result.returncode),
                          seen=self.ctx.evidence(result))

    def interrupt(self, count: int) -> None:
        """Ctrl-C at the prompt (SIGINT to the REPL's process group), then wait for prompt `count`.

        A signal that lands in the instant between the prompt being written and the read
        starting is only acted on when the read returns; if no prompt and no exit follows
        a short while, the signal is sent once more (a REPL that took the first one has
        long printed its prompt, so only that case ever sees a second).
        """
        time.sleep(SETTLE)
        self.child.signal(signal.SIGINT)
        wait_until(lambda: self.prompts() >= count or not self.child.running(), self.ctx.scaled(RETRY_AFTER))
        if self.prompts() < count and self.child.running():
            self.child.signal(signal.SIGINT)
        self.expect_prompt(count, self.ctx.say("doing.ctrl_c"))

    def finish(self, timeout: float, doing: str):
        """Wait for the child to exit; a REPL that does not is a failure, not a grader timeout."""
        try:
            return self.child.wait(timeout)
        except ChildTimeout:
            raise CheckFailed(self.ctx.say("edges.no_exit", doing=doing, seconds=timeout)) from None
