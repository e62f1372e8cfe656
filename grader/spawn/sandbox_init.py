"""The init (PID 1) of a sandboxed grading's PID namespace: `python -I -S sandbox_init.py -- CMD...`.

grader/spawn/sandbox.py runs it as the one process `unshare --pid --fork --kill-child` starts
in the new namespace; CMD is the grader (or a batch's grading process). The grader is
not PID 1 itself because PID 1 is special: every orphan of the namespace is re-parented
to it and stays a zombie unless it reaps it, and the kernel drops every signal PID 1
has no handler for (a SIGTERM to it would do nothing).

This init:

* starts CMD (fork, exec) with the signal dispositions it would have had without the
  sandbox: SIGINT, SIGTERM and SIGHUP as they came here (ignored stays ignored, as for a
  background job or under nohup, else the default), SIGPIPE and SIGXFSZ at their defaults;
* reaps every child, orphans included, until CMD has exited;
* passes SIGTERM and SIGHUP on to CMD, and ignores SIGINT: a terminal's Ctrl-C reaches
  CMD directly (it is in the same foreground process group), once;
* exits with CMD's status, 128+N when signal N ended it (as a shell reports it).

When it exits, the kernel kills every process left in the namespace: nothing CMD
started can outlive it, whatever its session, environment or pipes.

Standard library only, and nothing of the grader: it runs isolated (-I -S), so no
environment variable or path of the grading can change what it does.
"""

import os
import signal
import sys

FORWARDED = (signal.SIGTERM, signal.SIGHUP)
CANNOT_RUN = 127    # as a shell says "command not found"


def _become(command: list[str], mask: set, interrupt, ignored: set) -> None:
    """In the forked child: the signal state CMD would have had, then CMD itself."""
    try:
        for number in FORWARDED:
            signal.signal(number, signal.SIG_IGN if number in ignored else signal.SIG_DFL)
        for name in ("SIGPIPE", "SIGXFSZ"):  # Python ignores these at start-up; a program starts with them
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.signal(signal.SIGINT, interrupt)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.execvp(command[0], command)
    except OSError as exc:
        os.write(2, f"sandbox: cannot run {command[0]}: {exc.strerror}\n".encode("utf-8", "replace"))
    os._exit(CANNOT_RUN)


def run(command: list[str]) -> int:
    """Start `command`, reap everything until it exits; its exit status (128+N for signal N)."""
    came_ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ignored = {number for number in FORWARDED if signal.getsignal(number) is signal.SIG_IGN}
    interrupt = signal.SIG_IGN if came_ignored else signal.SIG_DFL
    child = 0

    def forward(number, frame):
        if child > 0:
            try:
                os.kill(child, number)
            except ProcessLookupError:
                pass

    # Blocked across the fork: a SIGTERM that comes before the child's pid is known waits
    # until it is, and never reaches the child's copy of this handler.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    for number in FORWARDED:
        signal.signal(number, forward)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        _become(command, mask, interrupt, ignored)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:  # cannot happen while the command is unreaped; never spin
            return CANNOT_RUN
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            return 128 - code if code < 0 else code


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        os.write(2, b"usage: python -I -S sandbox_init.py -- COMMAND [ARG...]\n")
        return 2
    return run(argv[argv.index("--") + 1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
