"""Children for checks: the student's code only ever runs in these.

A `Child` starts in a new session (its own process group, see groups.py) and is
killed with everything it started when it finishes, times out or the check leaves
it: grandchildren never outlive a check. The kernel kills it too when the thread
that started it ends or the grader dies, however (PR_SET_PDEATHSIG, groups.py). A
kill is confirmed by waiting: a result says "was stopped" only for a child that is
gone, and names the pids of any that a kill did not take (`ChildResult.survivors`).
Its output is read into capped buffers (capture.py).

Time limits are enforced with `Thread.join(timeout)`, which waits on a lock with
the real clock. `Popen.wait(timeout)` would use `time.monotonic`, which freezegun
freezes: under `freeze_time` a hanging child would never time out.

Time limits can be scaled for fast test suites: `GRADER_TIMEOUT_SCALE=0.1` makes
every child's limit a tenth of what the check asked for (never below 1 s, or the
asked limit if that is shorter). Unset, empty or unparsable: 1, the limits as
written. Checks may use `scaled(seconds)` for waits of their own.

A finished child becomes a `ChildResult`; whoever started it may pass `on_finish`
to be told (the check context records its children that way, for the reproduce
lines of `--keep`).
"""

from __future__ import annotations

import os
import pty
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from grader.i18n import word
from grader.spawn.capture import DEFAULT_OUTPUT_CAP, CappedStream
from grader.spawn import groups
from grader.spawn.groups import own_group, pipe_ids
from grader.spawn.interrupts import interruptible

SCALE_VAR = "GRADER_TIMEOUT_SCALE"
_DRAIN_GRACE = 5.0  # seconds, for both streams together, to drain what a finished child left in its pipes


@dataclass(frozen=True)
class ChildResult:
    """A finished (or killed) child: what ran, where, and what it printed.

    `repro` is the shell line that reproduces it, when whoever started the child
    knows a better one than the literal command (a lab child: the student's own lab).
    """

    argv: tuple[str, ...]
    cwd: str
    returncode: int | None
    stdout: str
    stderr: str
    duration: float
    timed_out: bool = False
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    shown: str | None = None        # the command as a student would type it
    repro: str | None = None
    env_overrides: dict[str, str] = field(default_factory=dict)
    survivors: tuple[int, ...] = ()  # pids still alive after the kill (normally none)
    stopped: bool = False            # the grader killed it while it ran (a time limit, or the check let go)

    def short_command(self) -> str:
        return self.shown or shlex.join(["python" if a == sys.executable else a for a in self.argv])

    def command_line(self) -> str:
        """A shell line that reproduces this child."""
        if self.repro:
            return self.repro
        env = " ".join(f"{key}={shlex.quote(value)}" for key, value in self.env_overrides.items())
        return f"cd {shlex.quote(self.cwd)} && {env + ' ' if env else ''}{self.short_command()}"

    def stderr_tail(self, n: int = 10) -> str:
        """The last `n` lines of stderr (where a traceback ends)."""
        return "\n".join(self.stderr.rstrip("\n").splitlines()[-n:])


class ChildTimeout(Exception):
    """A child outlived its time limit; it and its process group were killed."""

    def __init__(self, result: ChildResult, timeout: float):
        if result.survivors:
            text = word("engine.timed_out_alive", command=result.short_command(), seconds=timeout,
                        pids=", ".join(map(str, result.survivors)))
        else:
            text = word("engine.timed_out", command=result.short_command(), seconds=timeout)
        super().__init__(text)
        self.result = result
        self.timeout = timeout


def timeout_scale() -> float:
    """$GRADER_TIMEOUT_SCALE as a positive float; 1 when unset or not a positive number."""
    try:
        scale = float(os.environ.get(SCALE_VAR) or 1)
    except ValueError:
        return 1.0
    return scale if scale > 0 else 1.0


def scaled(seconds: float) -> float:
    """A time limit under $GRADER_TIMEOUT_SCALE: never below 1 s unless `seconds` is."""
    scale = timeout_scale()
    if scale == 1.0:
        return seconds
    return max(seconds * scale, min(seconds, 1.0))


_running: set["Child"] = set()   # children not yet finished, of every thread
_running_lock = threading.Lock()


def stop_all() -> list[int]:
    """Kill (and confirm) every child the calling thread started that is still running: the
    end of a grading, whatever a check that raised left behind. The pids a kill did not take."""
    me = threading.get_ident()
    with _running_lock:
        mine = [child for child in _running if child._thread == me]
    left: list[int] = []
    for child in mine:
        left += child._finish(timed_out=False).survivors
    return left


class Child:
    """A running child. Use as a context manager: leaving it always kills the group."""

    def __init__(self, argv, *, cwd: Path | str, env: dict[str, str] | None = None,
                 output_cap: int = DEFAULT_OUTPUT_CAP, stdin: bool = True, shown: str | None = None,
                 repro: str | None = None, on_finish: Callable[[ChildResult], None] | None = None,
                 tty: bool = False, paths=None):
        """`paths` (hermetic.PathMap): the child runs in a view where the scratch root has another
        path; its environment and input are given in the view's paths, its output read back in
        the host's (`argv` is already the view's: LabRunner writes it)."""
        self.argv = tuple(str(a) for a in argv)
        self._paths = paths
        self.cwd = str(cwd)
        self._shown, self._repro, self._on_finish = shown, repro, on_finish
        self._env_overrides = {k: v for k, v in (env or {}).items() if os.environ.get(k) != v}
        env = dict(os.environ if env is None else env)
        if paths is not None:
            env = paths.env_to_view(env)
        preexec = groups.die_with_parent_preexec()
        self._started = time.perf_counter()
        self._tty: int | None = None  # the pseudo-terminal's master side, when the child has one
        if tty:
            # A real terminal for the child: isatty() is true, input() prompts, and what it
            # prints (both streams, as on a screen) comes back through one master fd.
            self._tty, terminal = pty.openpty()
            # interruptible: Ctrl-C reaches it even when the grader runs in the background
            with interruptible(), groups.spawning():
                self._proc = subprocess.Popen(list(self.argv), cwd=self.cwd, env=env, start_new_session=True,
                                              stdin=terminal, stdout=terminal, stderr=terminal,
                                              preexec_fn=preexec)
                self._register()
            os.close(terminal)
        else:
            with interruptible(), groups.spawning():
                self._proc = subprocess.Popen(
                    list(self.argv), cwd=self.cwd, env=env, start_new_session=True,
                    stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec,
                )
                self._register()
        self._survivors: list[int] = []
        self._stopped = False
        self._pipes = pipe_ids(self._proc) if self._pgid is not None else set()
        out = os.fdopen(os.dup(self._tty), "rb", buffering=0) if tty else self._proc.stdout
        self._out = CappedStream(out, output_cap)
        self._err = CappedStream(self._proc.stderr, output_cap)
        self._wait_error: BaseException | None = None
        self._waiter = threading.Thread(target=self._wait_for_exit, daemon=True)
        self._waiter.start()
        self._result: ChildResult | None = None
        self._thread = threading.get_ident()
        with _running_lock:
            _running.add(self)

    def _register(self) -> None:
        """Note the new child's group, and (a real child) that it is ours while it lives."""
        self._pgid = own_group(self._proc)
        if self._pgid is not None:
            groups.register(self._proc.pid)

    def _wait_for_exit(self) -> None:
        try:
            self._proc.wait()
        except BaseException as exc:  # a fake process may report a timeout here
            self._wait_error = exc

    @property
    def pid(self) -> int:
        return self._proc.pid

    def running(self) -> bool:
        return self._waiter.is_alive()

    def _host(self, text: str) -> str:
        return self._paths.to_host(text) if self._paths is not None else text

    def stdout_so_far(self) -> str:
        return self._host(self._out.text())

    def send(self, text: str) -> None:
        """Write `text` to the child's stdin, or type it on its terminal (ignored if it has gone)."""
        if self._paths is not None:
            text = self._paths.to_view(text)
        try:
            if self._tty is not None:
                os.write(self._tty, text.encode("utf-8"))
                return
            self._proc.stdin.write(text.encode("utf-8"))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError, AttributeError):
            pass

    def close_stdin(self) -> None:
        """End the child's input: close the pipe, or type Ctrl-D on its terminal."""
        try:
            if self._tty is not None:
                os.write(self._tty, b"\x04")
            elif self._proc.stdin:
                self._proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def signal(self, number: int = signal.SIGINT) -> None:
        """Send a signal to the child's process group, as a terminal's Ctrl-C does."""
        if self._pgid is None:
            return
        try:
            os.killpg(self._pgid, number)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> list[int]:
        """SIGKILL the whole process group now, and every descendant that left it (groups.py);
        the pids of descendants still alive after the kill (normally none)."""
        if self._pgid is None:  # never for a stand-in process: its pid is made up
            return []
        pid = self._proc.pid if self._waiter.is_alive() else None  # a reaped pid may be another's
        self._stopped = self._stopped or pid is not None
        left = groups.kill_all(pid, self._pgid, self._pipes)
        self._survivors = sorted(set(self._survivors) | set(left))
        return left

    def wait(self, timeout: float = 20, *, exact: bool = False) -> ChildResult:
        """Wait for exit; on timeout kill the group and raise ChildTimeout (with the result).

        `timeout` is scaled by $GRADER_TIMEOUT_SCALE (see `scaled`) unless `exact`.
        """
        timeout = timeout if exact else scaled(timeout)
        self._waiter.join(timeout)
        timed_out = self._waiter.is_alive() or isinstance(self._wait_error, subprocess.TimeoutExpired)
        result = self._finish(timed_out)
        if timed_out:
            raise ChildTimeout(result, timeout)
        return result

    def _finish(self, timed_out: bool) -> ChildResult:
        if self._result is not None:
            return self._result
        with _running_lock:
            _running.discard(self)
        self.kill()  # on timeout the child; after a normal exit, any grandchildren
        self.close_stdin()
        self._waiter.join(5)
        if self._waiter.is_alive():  # the kill did not take: the report names it
            self._survivors = sorted({self._proc.pid, *self._survivors})
        elif self._pgid is not None:
            groups.unregister(self._proc.pid)
        self._survivors = [p for p in self._survivors if groups.alive(p)]
        # What the child wrote is in the pipes by now. A process we could not kill may
        # still hold a pipe open: wait a bounded time in total, never per stream.
        deadline = time.monotonic() + _DRAIN_GRACE
        for stream in (self._out, self._err):
            stream.thread.join(max(0.0, deadline - time.monotonic()))
        if self._tty is not None:
            try:
                os.close(self._tty)
            except OSError:
                pass
            self._tty = None
        returncode = self._proc.returncode
        self._result = ChildResult(
            argv=self.argv, cwd=self.cwd, returncode=None if timed_out else returncode,
            stdout=self._host(self._out.text()), stderr=self._host(self._err.text()),
            duration=round(time.perf_counter() - self._started, 3), timed_out=timed_out,
            stdout_truncated=self._out.truncated, stderr_truncated=self._err.truncated,
            shown=self._shown, repro=self._repro, env_overrides=self._env_overrides,
            survivors=tuple(self._survivors), stopped=self._stopped or timed_out,
        )
        if self._on_finish is not None:
            self._on_finish(self._result)
        return self._result

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, *exc_info) -> None:
        self._finish(timed_out=self._waiter.is_alive())


def start(argv, *, cwd: Path | str, env: dict[str, str] | None = None,
          output_cap: int = DEFAULT_OUTPUT_CAP, **child_options) -> Child:
    """Start a long-running child with a stdin pipe (for a REPL, or a child to kill)."""
    return Child(argv, cwd=cwd, env=env, output_cap=output_cap, stdin=True, **child_options)


def run(argv, *, cwd: Path | str, env: dict[str, str] | None = None, timeout: float = 20,
        input: str | None = None, output_cap: int = DEFAULT_OUTPUT_CAP, exact: bool = False,
        **child_options) -> ChildResult:
    """Run a child to completion. Raises ChildTimeout if it outlives `timeout` seconds."""
    with Child(argv, cwd=cwd, env=env, output_cap=output_cap, stdin=input is not None, **child_options) as child:
        if input is not None:
            # A writer thread: a child that never reads its stdin must not block us.
            writer = threading.Thread(target=_feed_stdin, args=(child, input), daemon=True)
            writer.start()
        return child.wait(timeout, exact=exact)


def _feed_stdin(child: Child, text: str) -> None:
    child.send(text)
    child.close_stdin()
