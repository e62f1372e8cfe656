"""E1: the recorder hands each log event to a background writer thread through a
queue ("so the agent never waits for the disk"); the thread wakes every 20 ms and
writes what has queued up, and end_turn waits until the queue is empty.

A clean turn ends with every line in place and in order. But `handle` returns before
its line is written: the agent takes its next step with the event still in memory,
and a process killed in that window loses it. The line must be in the file when
`handle` returns.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)

import queue
import threading
import time


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.queue = queue.Queue()

        def writer():
            while True:
                time.sleep(0.02)
                while True:
                    try:
                        kind, fields = self.queue.get_nowait()
                    except queue.Empty:
                        break
                    try:
                        self.written.append(self.log.append(kind, **fields))
                    finally:
                        self.queue.task_done()

        threading.Thread(target=writer, name="session-writer", daemon=True).start()

    def handle(self, event):
        entry = to_log_event(event)
        if entry is not None:
            self.queue.put(entry)

    def end_turn(self):
        self.queue.join()
