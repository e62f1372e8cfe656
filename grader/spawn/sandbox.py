"""`--sandbox`: each grading in a fresh PID namespace, where the machine allows one.

The grader kills what a lab starts by process group, by a token in the environment and
by the pipes it holds (grader/spawn/groups.py). A process that leaves its group, scrubs
its environment and lets go of the pipes escapes all three (tests/hostile, the
grandchild-scrubbed case). In a PID namespace of its own it cannot: the grading runs
under a small init (sandbox_init.py, PID 1 there), and when init exits the kernel kills
every process left in the namespace.

The way in is util-linux `unshare --pid --fork --kill-child --mount-proc` (2.32 or later
for --kill-child; a fresh /proc, because the grader's reaping code reads /proc and must
see the namespace's pids), as root; as another user inside a user namespace of its own
(`--user --map-current-user`, or `--map-root-user` where that is missing). `find()`
tries each way around `true`, once per process, and remembers the first that works, or
why none does (not Linux, no unshare, user namespaces off, a container that forbids
unshare(2), ...).

The sandbox adds no file system or network isolation: the grading sees the same files,
users and network as without it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader.i18n import word

MARKER_VAR = "GRADER_SANDBOXED"   # set inside the namespace: `check --sandbox` does not go in twice
INIT = Path(__file__).with_name("sandbox_init.py")
PROBE_TIMEOUT = 10.0              # seconds for `unshare ... true`: it takes milliseconds when it works
NAMESPACE = ("--pid", "--fork", "--kill-child", "--mount-proc")
AS_USER = (("--user", "--map-current-user"), ("--user", "--map-root-user"))
# Signals a grader exits by only when it was killed: re-raised on the way out, so that a
# sandboxed run ends as the same run without the sandbox would have (SIGINT is not here:
# 130 is the grader's own "interrupted" status).
KILLING = {getattr(signal, name) for name in ("SIGHUP", "SIGKILL", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGUSR1",
                                               "SIGUSR2") if hasattr(signal, name)}
SYSCTLS = (  # a sysctl that switches user namespaces off: its name, the value that does, a value that does not
    ("kernel.unprivileged_userns_clone", "0", "1"),                # Debian, older Ubuntu
    ("user.max_user_namespaces", "0", "15000"),                    # RHEL, CentOS
    ("kernel.apparmor_restrict_unprivileged_userns", "1", "0"),    # Ubuntu 23.10 and later
)


class Unavailable(Exception):
    """No PID namespace can be made here; str() says why and what to do."""


@dataclass(frozen=True)
class Way:
    """The argv prefix that runs a command in a fresh PID namespace, or why there is none."""

    prefix: tuple[str, ...] | None
    why: str = ""                                   # a key of words.toml [sandbox] when prefix is None
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def available(self) -> bool:
        return self.prefix is not None

    @property
    def reason(self) -> str:
        """One line: why the sandbox is unavailable, and the fix (in the grader's language)."""
        return word(f"sandbox.{self.why}", **self.fields) if self.why else ""


_found: Way | None = None
_lock = threading.Lock()


def find(*, again: bool = False) -> Way:
    """The way into a PID namespace on this machine, probed once per process."""
    global _found
    with _lock:
        if _found is None or again:
            _found = probe()
        return _found


def probe() -> Way:
    """Try each way around `true` (bounded by PROBE_TIMEOUT); the first that works."""
    if not sys.platform.startswith("linux"):
        return Way(None, "not_linux", {"platform": sys.platform})
    unshare = shutil.which("unshare")
    if unshare is None:
        return Way(None, "no_unshare")
    root = os.geteuid() == 0
    ways = [(unshare, *NAMESPACE)] if root else [(unshare, *user, *NAMESPACE) for user in AS_USER]
    last = ""
    for prefix in ways:
        try:
            done = subprocess.run([*prefix, "true"], stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=PROBE_TIMEOUT)
        except subprocess.TimeoutExpired as late:
            return Way(None, "probe_timeout", {"seconds": f"{late.timeout:g}"})
        except OSError as exc:
            return Way(None, "failed", {"error": exc.strerror or str(exc)})
        if done.returncode == 0:
            return Way(tuple(prefix))
        last = _last_line(done.stderr)
        if "unrecognized option" in last and "kill-child" in last:
            return Way(None, "too_old", {"version": _version(unshare)})
        if "unrecognized option" in last and "map-current-user" in last:
            continue  # older util-linux: --map-root-user is the next way
    if not root:
        for name, off, on in SYSCTLS:
            if _read("/proc/sys/" + name.replace(".", "/")) == off:
                return Way(None, "userns_off", {"setting": f"{name}={off}", "fix": f"sysctl -w {name}={on}"})
    return Way(None, "failed", {"error": last or "?"})


def _last_line(data: bytes) -> str:
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def _version(unshare: str) -> str:
    try:
        done = subprocess.run([unshare, "--version"], capture_output=True, timeout=PROBE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return _last_line(done.stdout) or "?"


def inside() -> bool:
    """This process runs in a sandbox `check --sandbox` made (no second one inside it)."""
    return os.environ.get(MARKER_VAR) == "1"


def wrap(argv: list[str]) -> list[str]:
    """`argv` as the one command of a fresh PID namespace, under its init; Unavailable if none."""
    way = find()
    if not way.available:
        raise Unavailable(way.reason)
    return [*way.prefix, sys.executable, "-I", "-S", str(INIT), "--", *map(str, argv)]


def status(returncode: int) -> int:
    """A sandboxed command's exit status as Popen would have reported it without the sandbox:
    init says 128+N for a command that signal N ended, Popen -N. 130 stays (the grader's
    own status after Ctrl-C, and what a shell shows for SIGINT anyway)."""
    number = returncode - 128
    if number <= 0 or number == signal.SIGINT:
        return returncode
    try:
        signal.Signals(number)
    except ValueError:
        return returncode
    return -number


def _children(pid: int) -> list[int]:
    """The children of `pid` (unshare's one child is the namespace's init)."""
    try:
        return [int(one) for one in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:  # a kernel without CONFIG_PROC_CHILDREN: look at every process's parent
        pass
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes() if entry.isdigit() else b""
        except OSError:
            continue
        fields = stat.rsplit(b")", 1)[-1].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _die_with_parent() -> None:
    """In unshare, before it starts: SIGKILL when the grader that started it dies (and with
    --kill-child, init and the namespace go with it), even when the grader is SIGKILLed."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run(argv: list[str], env: dict[str, str] | None = None) -> int:
    """Run `argv` (the grader's own command again) in a fresh PID namespace; its exit status.

    Its stdin, stdout and stderr are this process's. While it runs, SIGINT is ignored here
    (a terminal's Ctrl-C reaches the grader inside directly: same foreground group),
    SIGTERM and SIGHUP are passed on to init, which passes them on to the grader. A grader
    killed by a signal kills this process with the same signal, as if it had been this one.
    Unavailable if no namespace can be made.
    """
    command = wrap(argv)
    env = dict(os.environ if env is None else env, **{MARKER_VAR: "1"})
    in_main_thread = threading.current_thread() is threading.main_thread()
    proc: subprocess.Popen | None = None
    pending: list[int] = []
    received: list[int] = []

    def forward(number, frame):
        received.append(number)
        if proc is None:
            pending.append(number)
            return
        init = _children(proc.pid)
        try:
            if init:
                os.kill(init[0], number)
            else:  # init not started yet: nothing inside can have started either
                os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    before = {}
    if in_main_thread:
        # Handlers, not SIG_IGN: a handled signal is reset to its default at exec, so the
        # namespace starts with what this process was given (an ignored SIGINT stays ignored).
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            before[signal.SIGINT] = signal.signal(signal.SIGINT, lambda number, frame: None)
        for number in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(number) is not signal.SIG_IGN:   # ignored (nohup): stays so inside
                before[number] = signal.signal(number, forward)
    try:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            proc = subprocess.Popen(command, env=env,
                                    preexec_fn=_die_with_parent if threading.active_count() == 1 else None)
        except OSError as exc:  # unshare gone since the probe
            raise Unavailable(Way(None, "failed", {"error": exc.strerror or str(exc)}).reason) from None
        for number in pending:
            received.remove(number)
            forward(number, None)
        code = proc.wait()
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
    code = status(code)
    if code == -signal.SIGKILL and received:  # unshare, killed here before init had started
        code = -received[0]
    if code < 0 and -code in KILLING and in_main_thread:  # the grader inside was killed: so is this one, the same way
        if -code != signal.SIGKILL:  # (SIGKILL has no handler to reset)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return 128 - code if code < 0 else code


def main() -> int:
    """`python -m grader.spawn.sandbox`: exit 0 if --sandbox works here, else 1 and why (run_autograder asks)."""
    way = find()
    if way.available:
        print(" ".join(way.prefix))
        return 0
    print(way.reason, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
