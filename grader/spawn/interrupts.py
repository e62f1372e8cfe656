"""Children that can be interrupted, whoever started the grader.

A shell without job control starts a background command (`cmd &`, `nohup cmd &`,
CI runners, some IDEs) with SIGINT ignored, and an ignored signal stays ignored
across exec. Python then installs no KeyboardInterrupt handler at all, so a check
that presses Ctrl-C (SIGINT to a child's group) would see a child that never
notices, and fail a correct lab. A handled signal, by contrast, is reset to its
default at exec. `interruptible()` therefore gives SIGINT a handler in the grader's
process just while a child is started, and puts back what was there: the child
begins as a program started from a terminal does.
"""

from __future__ import annotations

import contextlib
import signal
import threading


@contextlib.contextmanager
def interruptible():
    """Start children inside this block: they inherit SIGINT at its default, not ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be changed from the main thread; nothing to do
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous != signal.SIG_IGN:
        yield  # not ignored: children already get the default
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
