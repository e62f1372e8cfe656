"""Signals around a run: SIGTERM stops it as Ctrl-C does (children killed, run root
removed) and the grader then dies of it; a grader that ignores SIGINT hands its children
the default instead of the ignore."""

from __future__ import annotations

import contextlib
import os
import signal
import threading


@contextlib.contextmanager
def sigterm_interrupts(terminated: list):
    """SIGTERM (a CI job cancelled, `kill`, a batch's stop) stops a run as Ctrl-C does: the
    children are killed and the run root removed; then (`die_if_terminated`) the grader dies
    of the SIGTERM as it would have without this, so whoever sent it sees the usual status.
    Left alone when SIGTERM is ignored (a grader under nohup) or handled by whoever runs the grader."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def interrupt(number, frame):
        terminated.append(number)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def die_if_terminated(terminated: list) -> None:
    if terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def children_get_default_sigint():
    """A grader started with SIGINT ignored (a script's background job, nohup) would hand the
    ignore on to every child it starts, and a check that presses Ctrl-C in the lab's REPL would
    see nothing happen. For the run, a handler that does nothing replaces the ignore: the grader
    still ignores Ctrl-C, and a child (exec resets handlers, not ignores) gets the default."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, lambda number, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
