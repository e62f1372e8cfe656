"""The watch's grading process: `run_day` in a process of one thread.

`grader watch` reads file events and keys in threads, and a process with threads
cannot fork safely, so checks could only run one after another in it. The watch
therefore forks this process first, before any thread starts. It starts the next
run's pytest session (its plugins, the day's checks collected), waits in it for a
request on a pipe, then runs the engine with its checks side by side
(grader/engine/parallel.py) and sends back each check's mark as it finishes, then the
DayResult (or the engine's error). Its modules stay imported between runs, and a
re-grade pays none of pytest's start.

It leads a process group of its own, so Ctrl-C at the terminal reaches only the
watch, which passes it on once: the engine here stops the run's children and
removes its scratch directories, as it does in `grader check`. If it has not
answered within STOP_GRACE, the watch kills it and everything it started
(grader/classroom/reap.py), so quitting never waits on a stuck run. A grading
process that died is started again for the next run.
"""

from __future__ import annotations

import os
import selectors
import signal
import sys
import time
from pathlib import Path

from grader.course import Course, Day
from grader.engine import EngineError, run_day
from grader.engine import parallel
from grader.i18n import word

STOP_GRACE = 15.0  # seconds the run gets to stop its checks after Ctrl-C before it is killed


class GradingProcess:
    """`grade(...)` has run_day's signature and results; the run happens in the child."""

    def __init__(self, course: Course, day: Day, lab: Path, *, jobs: int):
        self.course, self.day, self.lab, self.jobs = course, day, Path(lab), jobs
        self.pid: int | None = None
        self.requests = self.answers = -1
        self.reader: parallel.Reader | None = None
        self.runs = 0
        self._start()

    # ------------------------------------------------------------------ the child

    def _start(self) -> None:
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os.close(request_write)
            os.close(answer_read)
            _serve(self, request_read, answer_write)   # never returns
        os.close(request_read)
        os.close(answer_write)
        self.pid, self.requests, self.answers = pid, request_write, answer_read
        self.reader = parallel.Reader(answer_read, pid, [])

    def alive(self) -> bool:
        return self.pid is not None

    def _messages(self, timeout: float) -> list:
        """What the child sent within `timeout` seconds ([] if nothing); sets reader.closed at its end."""
        selector = selectors.DefaultSelector()
        selector.register(self.answers, selectors.EVENT_READ)
        try:
            if not selector.select(timeout=timeout):
                return []
            return self.reader.feed()
        except OSError:
            self.reader.closed = True
            return []
        finally:
            selector.close()

    # ------------------------------------------------------------------ one run

    def grade(self, course: Course, day: Day, lab: Path, *, select=None, seed=None, hint_levels=None,
              on_check=None):
        """As run_day (the course, day and lab are this process's own). Ctrl-C is passed on to
        the run, which stops; KeyboardInterrupt is raised once it has (or has been killed)."""
        if not self.alive():
            self._start()
        self.runs += 1
        run = self.runs
        request = ("grade", run, select, seed, dict(hint_levels) if hint_levels else None)
        try:
            try:
                parallel.send(self.requests, request)
            except OSError:   # it died between two runs: a new one
                self._lost()
                self._start()
                parallel.send(self.requests, request)
            while True:
                for kind, of_run, *rest in self._messages(0.5):
                    if of_run != run:
                        continue            # the end of an earlier, interrupted run
                    if kind == "check" and on_check is not None:
                        on_check(*rest)
                    elif kind == "result":
                        return rest[0]
                    elif kind == "error":
                        raise EngineError(rest[0])
                    elif kind == "interrupted":
                        raise KeyboardInterrupt
                if self.reader.closed:
                    status = self._lost()
                    raise EngineError(word("watch.grading_died", status=status))
        except KeyboardInterrupt:
            self._stop_run()
            raise

    def _stop_run(self) -> None:
        """Ctrl-C reached the watch in a run: pass it on once, wait for the run to stop."""
        if not self.alive():
            return
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)   # a second Ctrl-C cannot cut this short
        try:
            try:
                os.kill(self.pid, signal.SIGINT)
            except ProcessLookupError:
                self._lost()
                return
            deadline = time.monotonic() + STOP_GRACE
            while time.monotonic() < deadline:
                messages = self._messages(min(0.5, max(deadline - time.monotonic(), 0.0)))
                if self.reader.closed:
                    self._lost()
                    return
                if any(m[0] in ("interrupted", "result", "error") for m in messages):
                    return
            self._kill()
        finally:
            signal.signal(signal.SIGINT, previous)

    # ------------------------------------------------------------------ the end

    def _lost(self) -> int | None:
        """The child is gone (or must go): reap it, close our ends; its exit status."""
        status = None
        if self.pid is not None:
            try:
                _, raw = os.waitpid(self.pid, 0)
                status = os.waitstatus_to_exitcode(raw)
            except ChildProcessError:
                pass
        for fd in (self.requests, self.answers):
            try:
                os.close(fd)
            except OSError:
                pass
        self.pid, self.requests, self.answers, self.reader = None, -1, -1, None
        return status

    def _kill(self) -> None:
        from grader.classroom import reap
        if self.pid is not None:
            reap.kill_tree(self.pid)
        self._lost()

    def close(self) -> None:
        """No more runs: the child leaves when its request pipe closes (killed if it does not)."""
        if self.pid is None:
            return
        try:
            os.close(self.requests)
        except OSError:
            pass
        self.requests = -1
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:
            try:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                done = self.pid
            if done:
                self.pid = None
                break
            time.sleep(0.02)
        if self.pid is not None:
            self._kill()
        else:
            self._lost()


def _serve(process: GradingProcess, requests: int, answers: int) -> None:
    """In the forked child: grade on request until the request pipe closes."""
    code = 0
    run = 0
    try:
        os.setpgid(0, 0)
        from grader.spawn.groups import adopt_orphans
        adopt_orphans()  # it only grades: orphans its lab children leave are its to kill
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for number in (signal.SIGTERM, signal.SIGHUP):   # the watch's handlers are not ours
            signal.signal(number, signal.SIG_DFL)
        reader = parallel.Reader(requests, os.getpid(), [])
        while True:
            # Each run's pytest session starts before its request comes (run_day's `ready`), so a
            # re-grade pays only the copy of the lab, its probe and the checks themselves.
            asked: list = []

            def ready():
                message = _next(reader)
                if message is None:
                    return None
                _, number, select, seed, hint_levels = message
                asked.append(number)
                return select, seed, hint_levels, \
                    lambda check_id, status: parallel.send(answers, ("check", number, check_id, status))

            def failed(answer) -> bool:
                """Send `answer` for the run asked for (waiting for its request if none was yet);
                False once the watch has closed its end."""
                if not asked and ready() is None:
                    return False
                parallel.send(answers, (answer[0], asked[0], *answer[1:]))
                return True
            try:
                result = run_day(process.course, process.day, process.lab, jobs=process.jobs, ready=ready)
                if result is None:
                    break
                parallel.send(answers, ("result", asked[0], result))
            except KeyboardInterrupt:   # in a run, or between two (then there was nothing to stop)
                parallel.send(answers, ("interrupted", asked[0] if asked else run))
            except EngineError as exc:
                if not failed(("error", str(exc))):
                    break
            except Exception as exc:  # noqa: BLE001 - the watch shows it and carries on
                if not failed(("error", f"{type(exc).__name__}: {exc}")):
                    break
            if asked:
                run = asked[0]
    except BaseException:  # noqa: BLE001 - the watch sees the pipe close and says so
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        os._exit(code)


def _next(reader):
    """The next request, or None once the watch has closed its end."""
    while True:
        messages = reader.feed()
        if messages:
            return messages[0]
        if reader.closed:
            return None
