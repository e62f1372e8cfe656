"""Starting and always reaping the writer child processes."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from tests.session.conftest import SOLUTION

WRITER = Path(__file__).with_name("writer.py")


def child_env(fsync: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("MCA_FSYNC", "PYTHONPATH")}
    env["PYTHONPATH"] = str(SOLUTION)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if fsync:
        env["MCA_FSYNC"] = "1"
    return env


@contextmanager
def writer(*args: str, fsync: bool = False):
    """Start ``writer.py`` with ``args``; on exit it is killed (if alive) and reaped."""
    proc = subprocess.Popen([sys.executable, "-S", str(WRITER), *map(str, args)], env=child_env(fsync),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


def read_line(proc, buffer: bytearray, limit: float = 60.0) -> str:
    """Read up to the next newline of the child's stdout (raw, so nothing is left in a buffer).

    ``limit`` only stops a broken child from hanging the suite; it asserts nothing about speed.
    """
    fd = proc.stdout.fileno()
    poller = select.poll()  # poll, not select: select fails on descriptors above 1023
    poller.register(fd, select.POLLIN)
    while b"\n" not in buffer:
        if not poller.poll(limit * 1000):
            raise AssertionError("the child printed nothing for a minute")
        chunk = os.read(fd, 65536)
        if not chunk:
            raise AssertionError(f"the child exited early: {proc.stderr.read().decode(errors='replace')[-2000:]}")
        buffer += chunk
    line, _, rest = bytes(buffer).partition(b"\n")
    buffer[:] = rest
    return line.decode()


def read_rest(proc, buffer: bytearray) -> list[str]:
    """After the child died: everything else it printed, as lines (a torn last line is dropped)."""
    fd = proc.stdout.fileno()
    while chunk := os.read(fd, 65536):
        buffer += chunk
    return bytes(buffer).decode().split("\n")[:-1]
