"""Children for checks: the student's code only ever runs in these.

Every child starts in a new session (its own process group), so the grader can
kill it *and* anything it started (a test suite, a shell) with one SIGKILL to the
group: on timeout, and also after a normal exit, so grandchildren never outlive
the check. Output is read by two threads into capped buffers: a child that
floods megabytes can neither eat the grader's memory nor deadlock on a full pipe.

Time limits are enforced with `Thread.join(timeout)`, which waits on a lock with
the real clock. `Popen.wait(timeout)` would use `time.monotonic`, which freezegun
freezes: under `freeze_time` a hanging child would never time out.

Escaped descendants. A student's code may start a process in a session of its own
(`start_new_session=True`, a double fork): the group kill misses it. Every child
therefore carries a random token in its environment (`GRADER_SPAWN_TOKEN`), which
its descendants inherit; on Linux, when a child finishes or is killed, every
process whose /proc environ holds that token, or which holds one of the child's
pipes, is SIGKILLed too. What this cannot catch: a process that exec'd itself with
a fresh environment *and* let go of the pipes (only a container or cgroup can
guarantee that), and code that signals the grader itself (same user).

Every finished child is appended to a per-check record (`recorded()`), which the
pytest plugin turns into the `reproduce:` lines that `--keep` prints.

Time limits can be scaled for fast test suites: `GRADER_TIMEOUT_SCALE=0.1` makes
every child's limit a tenth of what the check asked for (never below 1 s, or the
asked limit if that is shorter). Unset, empty or unparsable: 1, the limits as
written. Checks may use `scaled(seconds)` for waits of their own.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_OUTPUT_CAP = 1_000_000  # bytes kept per stream: the first half and the last half
_CHUNK = 65536
SCALE_VAR = "GRADER_TIMEOUT_SCALE"
TOKEN_VAR = "GRADER_SPAWN_TOKEN"  # marks a child's descendants, even those in sessions of their own
_DRAIN_GRACE = 5.0  # seconds, for both streams together, to drain what a finished child left in its pipes
# How a lab's code is started. The agent uses the standard library only, so `-S`
# (no site-packages) costs it nothing: it keeps the grader's own installed packages
# out of the lab's reach and saves the site start-up (about 13 ms a child here).
LAB_PYTHON = (sys.executable, "-S")

_CHILD_ENV = {
    "MOCK": "1",
    "PYTHONDONTWRITEBYTECODE": "1",  # grading leaves no __pycache__ in a lab
    "PYTHONUNBUFFERED": "1",  # output reaches the pipe when it is printed
    "NO_COLOR": "1",
}


@dataclass
class ChildResult:
    """A finished (or killed) child: what ran, where, and what it printed."""

    argv: tuple[str, ...]
    cwd: str
    env_overrides: dict[str, str]
    returncode: int | None
    stdout: str
    stderr: str
    duration: float
    timed_out: bool = False
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    env_removed: tuple[str, ...] = field(default=())

    def short_command(self) -> str:
        """The command alone, as a student would type it: the interpreter (and the
        grader's `-S`) shown as `python`."""
        argv = list(self.argv)
        if tuple(argv[:len(LAB_PYTHON)]) == LAB_PYTHON:
            argv[:len(LAB_PYTHON)] = ["python"]
        elif argv and argv[0] == sys.executable:
            argv[0] = "python"
        return shlex.join(argv)

    def command_line(self) -> str:
        """A shell line that reproduces this child: `cd DIR && VAR=... python -m mca ...`."""
        env = " ".join(f"{key}={shlex.quote(value)}" for key, value in self.env_overrides.items())
        if self.env_removed:
            unset = " ".join(f"-u {shlex.quote(key)}" for key in self.env_removed)
            env = f"env {unset} {env}".rstrip()
        prefix = f"{env} " if env else ""
        return f"cd {shlex.quote(self.cwd)} && {prefix}{self.short_command()}"

    def stderr_tail(self, n: int = 10) -> str:
        """The last `n` lines of stderr (where a traceback ends)."""
        return "\n".join(self.stderr.rstrip("\n").splitlines()[-n:])


class ChildTimeout(Exception):
    """A child outlived its time limit; it and its process group were killed."""

    def __init__(self, result: ChildResult, timeout: float):
        super().__init__(f"`{result.short_command()}` did not finish within {timeout:g} s and was stopped")
        self.result = result
        self.timeout = timeout


# --------------------------------------------------------------------------- time limits

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


# --------------------------------------------------------------------------- the record

_record: list[ChildResult] = []
_record_lock = threading.Lock()


def recorded() -> list[ChildResult]:
    """Children finished since the last `reset_record()`, oldest first."""
    with _record_lock:
        return list(_record)


def reset_record() -> None:
    with _record_lock:
        _record.clear()


def _remember(result: ChildResult) -> None:
    with _record_lock:
        _record.append(result)


# --------------------------------------------------------------------------- environment

# Set by the engine for one grading run: children then share compiled bytecode in a
# scratch dir of the run (compiling the lab once, not once per child) and still write
# nothing into any lab. None: no bytecode is written at all.
_pycache_dir: Path | None = None


def share_bytecode(directory: Path | None) -> None:
    """Let the children of this run cache bytecode in `directory` (None: stop)."""
    global _pycache_dir
    _pycache_dir = directory


def mca_env(lab: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a lab child: ours without any MCA_* variable, the mock
    gateway on, the lab importable, no bytecode in the lab, unbuffered, no colour."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MCA_")}
    env.update(_CHILD_ENV)
    if _pycache_dir is not None:
        del env["PYTHONDONTWRITEBYTECODE"]
        env["PYTHONPYCACHEPREFIX"] = str(_pycache_dir)
    env["PYTHONPATH"] = str(Path(lab).resolve())
    env.update(extra or {})
    return env


def _env_diff(env: dict[str, str] | None) -> tuple[dict[str, str], tuple[str, ...]]:
    if env is None:
        return {}, ()
    # The variables mca_env sets are always shown, so the line works in any shell.
    shown = {*_CHILD_ENV, "PYTHONPATH"}
    changed = {k: v for k, v in env.items() if k in shown or os.environ.get(k) != v}
    removed = tuple(k for k in os.environ if k not in env)
    return changed, removed


# --------------------------------------------------------------------------- output capture

class _CappedStream:
    """Drains one pipe in a thread, keeping the first and last halves of `cap` bytes."""

    def __init__(self, stream, cap: int):
        self.cap = cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream) -> None:
        if stream is None:
            return
        try:
            while True:
                chunk = stream.read1(_CHUNK) if hasattr(stream, "read1") else stream.read(_CHUNK)
                if not chunk:
                    break
                self._feed(chunk)
        except (OSError, ValueError):
            pass  # the pipe was closed under us: the child is gone
        finally:
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    def _feed(self, chunk: bytes) -> None:
        with self._lock:
            self.total += len(chunk)
            room = self.cap // 2 - len(self.head)
            if room > 0:
                self.head += chunk[:room]
                chunk = chunk[room:]
            if chunk:
                self.tail += chunk
                keep = self.cap - self.cap // 2
                if len(self.tail) > keep:
                    del self.tail[: len(self.tail) - keep]

    @property
    def truncated(self) -> bool:
        return self.total > self.cap

    def text(self) -> str:
        with self._lock:
            if not self.truncated:
                return bytes(self.head + self.tail).decode("utf-8", "replace")
            dropped = self.total - len(self.head) - len(self.tail)
            return (bytes(self.head).decode("utf-8", "replace")
                    + f"\n[... {dropped} bytes of output not kept ...]\n"
                    + bytes(self.tail).decode("utf-8", "replace"))


def _own_group(proc) -> int | None:
    """The process group a real child leads, or None (then nothing is ever killed).

    Called right after Popen returns, before the child is reaped. A stand-in
    process (pytest-subprocess's FakePopen) has a made-up pid that may belong to
    a real process, even pid 1: it is recognised by its type and never signalled.
    """
    if type(proc).__module__ != "subprocess" or not isinstance(proc.pid, int) or proc.pid <= 1:
        return None
    try:
        pgid = os.getpgid(proc.pid)
    except OSError:
        return None
    if pgid != proc.pid or pgid == os.getpgrp():  # not the leader of a new session: not ours to kill
        return None
    return pgid


def _kill_group(pgid: int | None) -> None:
    """SIGKILL a child's whole process group (it was started in a new session)."""
    if pgid is None:
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pipe_ids(proc) -> set[str]:
    """`pipe:[inode]` of the child's stdin/stdout/stderr, as /proc/PID/fd links show them."""
    ids = set()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            ids.add(f"pipe:[{os.fstat(stream.fileno()).st_ino}]")
        except (AttributeError, OSError, ValueError):
            pass
    return ids


def _escaped(token: bytes, pipes: set[str]) -> list[int]:
    """Live processes (other than us) that carry `token` in their environ or hold one of `pipes`."""
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found  # no /proc: only the group kill applies
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if token in handle.read():
                    found.append(int(entry))
                    continue
            if pipes:
                fds = f"/proc/{entry}/fd"
                if any(_readlink(f"{fds}/{fd}") in pipes for fd in os.listdir(fds)):
                    found.append(int(entry))
        except OSError:  # gone, or not ours to look at
            continue
    return found


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


def _kill_escaped(token: bytes, pipes: set[str]) -> None:
    """SIGKILL every descendant that left the child's process group (see the module doc).

    Repeated until a pass finds nothing, so a process forking while we look is caught too.
    """
    for _ in range(20):
        pids = _escaped(token, pipes)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)  # let the killed go (a zombie is skipped: its environ reads empty)


# --------------------------------------------------------------------------- children

class Child:
    """A running child. Use as a context manager: leaving it always kills the group."""

    def __init__(self, argv, *, cwd: Path | str, env: dict[str, str] | None = None,
                 output_cap: int = DEFAULT_OUTPUT_CAP, stdin: bool = True):
        self.argv = tuple(str(a) for a in argv)
        self.cwd = str(cwd)
        self.env_overrides, self.env_removed = _env_diff(env)  # the token is not part of a repro line
        self._token = uuid.uuid4().hex
        env = dict(os.environ if env is None else env, **{TOKEN_VAR: self._token})
        self._started = time.perf_counter()
        self._proc = subprocess.Popen(
            list(self.argv), cwd=self.cwd, env=env, start_new_session=True,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self._pgid = _own_group(self._proc)
        self._pipes = _pipe_ids(self._proc) if self._pgid is not None else set()
        self._out = _CappedStream(self._proc.stdout, output_cap)
        self._err = _CappedStream(self._proc.stderr, output_cap)
        self._wait_error: BaseException | None = None
        self._waiter = threading.Thread(target=self._wait_for_exit, daemon=True)
        self._waiter.start()
        self._result: ChildResult | None = None

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

    def stdout_so_far(self) -> str:
        return self._out.text()

    def send(self, text: str) -> None:
        """Write `text` to the child's stdin (ignored if the child has gone)."""
        try:
            self._proc.stdin.write(text.encode("utf-8"))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError, AttributeError):
            pass

    def close_stdin(self) -> None:
        try:
            if self._proc.stdin:
                self._proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def kill(self) -> None:
        """SIGKILL the whole process group now, and any descendant that left it."""
        _kill_group(self._pgid)
        if self._pgid is not None:  # never for a stand-in process: its pid is made up
            _kill_escaped(f"{TOKEN_VAR}={self._token}".encode(), self._pipes)

    def wait(self, timeout: float = 20) -> ChildResult:
        """Wait for exit; on timeout kill the group and raise ChildTimeout (with the result).

        `timeout` is scaled by $GRADER_TIMEOUT_SCALE (see `scaled`).
        """
        timeout = scaled(timeout)
        self._waiter.join(timeout)
        timed_out = self._waiter.is_alive() or isinstance(self._wait_error, subprocess.TimeoutExpired)
        result = self._finish(timed_out)
        if timed_out:
            raise ChildTimeout(result, timeout)
        return result

    def _finish(self, timed_out: bool) -> ChildResult:
        if self._result is not None:
            return self._result
        self.kill()  # on timeout the child; after a normal exit, any grandchildren
        self.close_stdin()
        self._waiter.join(5)
        # What the child wrote is in the pipes by now. A process we could not kill may
        # still hold a pipe open: wait a bounded time in total, never per stream.
        deadline = time.monotonic() + _DRAIN_GRACE
        for stream in (self._out, self._err):
            stream.thread.join(max(0.0, deadline - time.monotonic()))
        returncode = self._proc.returncode
        self._result = ChildResult(
            argv=self.argv, cwd=self.cwd, env_overrides=dict(self.env_overrides),
            returncode=None if timed_out else returncode,
            stdout=self._out.text(), stderr=self._err.text(),
            duration=round(time.perf_counter() - self._started, 3), timed_out=timed_out,
            stdout_truncated=self._out.truncated, stderr_truncated=self._err.truncated,
            env_removed=self.env_removed,
        )
        _remember(self._result)
        return self._result

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, *exc_info) -> None:
        self._finish(timed_out=self._waiter.is_alive())


def start(argv, *, cwd: Path | str, env: dict[str, str] | None = None,
          output_cap: int = DEFAULT_OUTPUT_CAP) -> Child:
    """Start a long-running child with a stdin pipe (for a REPL, or a child to kill)."""
    return Child(argv, cwd=cwd, env=env, output_cap=output_cap, stdin=True)


def run(argv, *, cwd: Path | str, env: dict[str, str] | None = None, timeout: float = 20,
        input: str | None = None, output_cap: int = DEFAULT_OUTPUT_CAP) -> ChildResult:
    """Run a child to completion. Raises ChildTimeout if it outlives `timeout` seconds."""
    with Child(argv, cwd=cwd, env=env, output_cap=output_cap, stdin=input is not None) as child:
        if input is not None:
            # A writer thread: a child that never reads its stdin must not block us.
            writer = threading.Thread(target=_feed_stdin, args=(child, input), daemon=True)
            writer.start()
        return child.wait(timeout)


def _feed_stdin(child: Child, text: str) -> None:
    child.send(text)
    child.close_stdin()


def run_mca(lab: Path, *args: str, cwd: Path | str, timeout: float = 20, input: str | None = None,
            extra_env: dict[str, str] | None = None) -> ChildResult:
    """Run `python -m mca ARGS` from `cwd` against the lab's code."""
    return run([*LAB_PYTHON, "-m", "mca", *args], cwd=cwd, env=mca_env(lab, extra_env),
               timeout=timeout, input=input)


def start_mca(lab: Path, *args: str, cwd: Path | str, extra_env: dict[str, str] | None = None) -> Child:
    """Start `python -m mca ARGS` (e.g. a REPL) and return the running Child."""
    return start([*LAB_PYTHON, "-m", "mca", *args], cwd=cwd, env=mca_env(lab, extra_env))
