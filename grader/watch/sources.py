"""Where the watch loop's events come from: saved files and pressed keys, in one queue.

The loop only ever calls `source.get(timeout)`, so a test hands it a `ScriptedSource`
(a list of events) and never waits on the file system; `grader watch` hands it a
`LiveSource`, fed by two threads: watchfiles (inotify on Linux, FSEvents on macOS,
polling elsewhere) and, on a terminal, a reader of single key presses.
"""

from __future__ import annotations

import os
import queue
import select
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable


@dataclass(frozen=True)
class Changed:
    """Lab paths (relative, '/'-separated) that were written, added or removed."""
    paths: frozenset[str]


@dataclass(frozen=True)
class Key:
    """A key pressed on the terminal: 'a', 'q', '\\n' ..."""
    key: str


@dataclass(frozen=True)
class Failed:
    """The file watcher stopped: `why` is one line for the student."""
    why: str


class End:
    """No more events will come (a scripted source ran out)."""


END = End()
Event = Changed | Key | Failed | End


class ScriptedSource:
    """Events from a list, for tests. `None` in the list stands for a quiet moment (what
    `get` returns when its timeout passes): it ends a burst of changes. A callable is
    called when its turn comes and stands for what it returns (so a test can edit a
    file between two runs). After the last event, END."""

    def __init__(self, events: Iterable[Event | None | Callable[[], Event | None]]):
        self.events = list(events)
        self.handed: list[Event | None] = []

    def get(self, timeout: float | None = None) -> Event | None:
        event = self.events.pop(0) if self.events else END
        if callable(event):
            event = event()
        self.handed.append(event)
        return event


class LiveSource:
    """Changes under `lab` from watchfiles, and (if `keys`) key presses from stdin."""

    def __init__(self, lab: Path, *, keys: bool = False, stdin=None, on_key: Callable[[str], None] | None = None):
        self.lab = Path(lab).resolve()
        self.on_key = on_key      # called in the reader thread as each key arrives
        self.queue: queue.Queue = queue.Queue()
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.stdin = stdin if stdin is not None else sys.stdin
        self.threads = [threading.Thread(target=self._watch, name="grader-watch-files", daemon=True)]
        self.key_fd: int | None = None
        if keys:
            # A copy of the terminal's descriptor: while the engine's pytest runs, it puts
            # /dev/null in place of fd 0, and a reader of fd 0 would see the end of input.
            self.key_fd = os.dup(self.stdin.fileno())
            self.threads.append(threading.Thread(target=self._keys, name="grader-watch-keys", daemon=True))

    def start(self) -> "LiveSource":
        for thread in self.threads:
            thread.start()
        return self

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Until the file watcher is watching (a save before that would be missed)."""
        self.ready.wait(timeout)

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=2)
        if self.key_fd is not None:
            os.close(self.key_fd)
            self.key_fd = None

    def get(self, timeout: float | None = None) -> Event | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def _watch(self) -> None:
        try:
            import watchfiles
            # step: a burst ends after 50 ms without a write; the loop adds its own quiet
            # window on top. The timeout ticks let the thread notice `stop`.
            for changes in watchfiles.watch(self.lab, watch_filter=None, debounce=1600, step=50,
                                            stop_event=self.stop, rust_timeout=200, yield_on_timeout=True,
                                            raise_interrupt=False):
                self.ready.set()
                paths = frozenset(rel for rel in (self._relative(path) for _, path in changes) if rel)
                if paths:
                    self.queue.put(Changed(paths))
        except Exception as exc:  # a vanished lab, a watch limit reached: say it, do not crash
            self.queue.put(Failed(f"{type(exc).__name__}: {exc}"))
        finally:
            self.ready.set()

    def _relative(self, path: str) -> str | None:
        for candidate in (Path(path), Path(path).resolve()):
            try:
                rel = candidate.relative_to(self.lab).as_posix()
            except ValueError:
                continue
            return rel if rel != "." else None
        return None

    def _keys(self) -> None:
        fd = self.key_fd
        while not self.stop.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                data = os.read(fd, 64)
            except (OSError, ValueError):
                return
            if not data:
                return              # stdin closed: no more keys, the watch goes on
            for char in data.decode("utf-8", "replace"):
                if self.on_key is not None:
                    self.on_key(char)
                self.queue.put(Key(char))
