"""The import probe started beside pytest: does the lab's package import, and does the
agent's entry point answer `--help` (grader/engine/ takes its verdict before the first check)."""

from __future__ import annotations

import time

from grader.checkkit.context import CheckContext
from grader.spawn import ChildTimeout, scaled

PROBE_TIMEOUT = 20  # seconds for importing (and compiling) the lab's package: a healthy lab needs a
                    # fraction of one, a machine loaded tenfold a few (seen: over 10 s at load 25 on 2 cores)
SLOW_IMPORT = 2     # seconds of importing after which `on_wait` says what the grader is waiting for
PROBE_FLOOR = 5     # ... never scaled below this: a loaded machine compiling a lab can take a second or two


def _finished_within(child, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while child.running() and time.monotonic() < deadline:
        time.sleep(0.02)
    return not child.running()


class Probe:
    """The import probe: does the lab's package import at all? Started before pytest, so
    the lab imports while pytest starts and collects the checks (on two cores, both at
    once); its verdict is taken before the first check runs (`before_checks`), and a lab
    that cannot start runs no check at all.

    Beside it, the agent's entry point runs once with `--help` (the answer, or its exit
    status, does not matter: only whether it finishes). One that does not finish within
    the limit is an agent that never answers: `silent` says so, and every check that runs
    the agent reports that cause at once instead of waiting out its own limit."""

    _UNSET = object()

    def __init__(self, context: CheckContext, on_wait=None):
        self.context = context
        self.on_wait = on_wait
        self.timeout = max(scaled(PROBE_TIMEOUT), PROBE_FLOOR)
        self.started = time.monotonic()
        self.child = context.runner.start_probe(cwd=context.tmp("import-probe"))
        self.help = None
        self.silent: str | None = None
        try:
            self.help = context.runner.start_agent("--help", cwd=context.tmp("help-probe"))
            self.help.close_stdin()
        except BaseException:
            self.stop()
            raise
        self._verdict = self._UNSET

    def verdict(self) -> str | None:
        """None if the lab's package imports; else the one-line reason every check will give.
        Taken once; an agent that does not answer `--help` is told to the checks then."""
        if self._verdict is self._UNSET:
            self._verdict = self._judge()
            if self._verdict is None:
                self.silent = self._answers()
                self.context.silent = self.silent
        return self._verdict

    def _answers(self) -> str | None:
        """None if `python -m <agent> --help` finished within the limit, else the cause."""
        say, package = self.context.say, self.context.course.agent.package
        if self.on_wait is not None and self.timeout > SLOW_IMPORT:
            if not _finished_within(self.child, SLOW_IMPORT - (time.monotonic() - self.started)):
                self.on_wait(package, round(self.timeout))
        left = self.timeout - (time.monotonic() - self.started)
        try:
            self.help.wait(max(left, 0.0), exact=True)
        except ChildTimeout as exc:
            survivors = exc.result.survivors
            if survivors:
                return say("lab.silent_alive", package=package, seconds=self.timeout,
                           pids=", ".join(map(str, survivors)))
            return say("lab.silent", package=package, seconds=self.timeout)
        finally:
            self.context.take_children()
        return None

    def _judge(self) -> str | None:
        say, package = self.context.say, self.context.course.agent.package
        if self.on_wait is not None and self.timeout > SLOW_IMPORT:
            if not _finished_within(self.child, SLOW_IMPORT - (time.monotonic() - self.started)):
                self.on_wait(package, round(self.timeout))
        left = self.timeout - (time.monotonic() - self.started)
        try:
            result = self.child.wait(max(left, 0.0), exact=True)
        except ChildTimeout:
            return say("lab.cannot_start", package=package, why=say("lab.timed_out", seconds=self.timeout))
        finally:
            self.context.take_children()
        if result.returncode == 0 and "imported" in result.stdout:
            return None
        return say("lab.cannot_start", package=package, why=say("lab.crashed", evidence=self.context.evidence(result)))

    def stop(self) -> None:
        """Kill the probes if nobody waited for them (pytest stopped first, Ctrl-C)."""
        self.child.__exit__(None, None, None)
        if self.help is not None:
            self.help.__exit__(None, None, None)
