"""Capped capture: a child's output is read by a thread into a bounded buffer.

A child that floods megabytes can neither eat the grader's memory nor deadlock on
a full pipe: the first and the last halves of the cap are kept, the middle is
counted and dropped.
"""

from __future__ import annotations

import threading

DEFAULT_OUTPUT_CAP = 1_000_000  # bytes kept per stream: the first half and the last half
_CHUNK = 65536



class CappedStream:
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


