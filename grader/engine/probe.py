"""The import probe started beside pytest: does the lab's package import, and does the
agent's entry point answer `--help` (grader/engine/ takes its verdict before the first check)."""

from __future__ import annotations

import secrets
import time

from grader.checkkit.context import CheckContext
from grader.spawn import ChildTimeout, scaled

PROBE_TIMEOUT = 20  # seconds for importing (and compiling) the lab's package: a healthy lab needs a
                    # fraction of one, a machine loaded tenfold a few (seen: over 10 s at load 25 on 2 cores)
SLOW_IMPORT = 2     # seconds of importing after which `on_wait` says what the grader is waiting for
PROBE_FLOOR = 5     # ... never scaled below this: a loaded machine compiling a lab can take a second or two
_POLL = 0.01        # seconds between two looks at the probe's output


class Probe:
    """The import probe: does the lab's package import at all? Started before pytest, so
    the lab imports while pytest starts and collects the checks (on two cores, both at
    once); its verdict is taken before the first check runs (`before_checks`), and a lab
    that cannot start runs no check at all.

    The same child then runs the agent's entry point with `--help` (the answer, or its exit
    status, does not matter: only whether it finishes). One that does not finish within
    the limit is an agent that never answers: `silent` says so, and every check that runs
    the agent reports that cause at once instead of waiting out its own limit. One child
    for both: it prints a marker of this run's own (which no lab can know) once every module
    imported, and only then runs the entry point; the import verdict is the marker's, the
    `--help` one the child's exit."""

    _UNSET = object()

    def __init__(self, context: CheckContext, on_wait=None):
        self.context = context
        self.on_wait = on_wait
        self.timeout = max(scaled(PROBE_TIMEOUT), PROBE_FLOOR)
        self.started = time.monotonic()
        self.marker = "probe-" + secrets.token_hex(8)
        self.child = context.runner.start_probe(cwd=context.tmp("import-probe"), then_help=self.marker)
        self.silent: str | None = None
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

    def _imported(self) -> bool:
        return f"\n{self.marker}\n" in self.child.stdout_so_far()

    def _wait_for_import(self, until: float) -> bool:
        """Until the marker came, the child ended or `until` (monotonic) passed: whether it came."""
        while True:
            if self._imported():
                return True
            if not self.child.running():
                return self._imported()   # what it printed last may have been read after its exit
            if time.monotonic() >= until:
                return False
            time.sleep(_POLL)

    def _answers(self) -> str | None:
        """None if the entry point's `--help` finished within the limit, else the cause."""
        say, package = self.context.say, self.context.course.agent.package
        left = self.timeout - (time.monotonic() - self.started)
        try:
            self.child.wait(max(left, 0.0), exact=True)
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
        deadline = self.started + self.timeout
        if self.on_wait is not None and self.timeout > SLOW_IMPORT:
            if not self._wait_for_import(self.started + SLOW_IMPORT):
                if self.child.running():
                    self.on_wait(package, round(self.timeout))
        if self._wait_for_import(deadline):
            return None
        try:
            result = self.child.wait(0 if self.child.running() else max(deadline - time.monotonic(), 0.0), exact=True)
        except ChildTimeout:
            return say("lab.cannot_start", package=package, why=say("lab.timed_out", seconds=self.timeout))
        finally:
            self.context.take_children()
        if self._imported():   # the marker came at the last moment
            return None
        return say("lab.cannot_start", package=package, why=say("lab.crashed", evidence=self.context.evidence(result)))

    def stop(self) -> None:
        """Kill the probe if nobody waited for it (pytest stopped first, Ctrl-C)."""
        self.child.__exit__(None, None, None)
