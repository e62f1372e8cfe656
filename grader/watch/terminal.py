"""`grader watch` on a real terminal: keys without Enter, signals, and a clean way out.

On a terminal stdin is put in cbreak mode (keys arrive one by one, unechoed; Ctrl-C
still sends SIGINT) and put back as it was however the watch ends. SIGTERM and
SIGHUP (a closed terminal window) stop it as Ctrl-C does: the engine stops the
children of a run under way and removes its scratch directories, so no process of
a check outlives the watch. Nothing here writes into the lab.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
from pathlib import Path

from grader.course import Course, Day
from grader.engine import new_seed
from grader.engine import parallel
from grader.i18n import word
from grader.report.text import can_encode
from grader.watch.loop import Watch
from grader.watch.server import GradingProcess
from grader.watch.sources import LiveSource
from grader.watch.view import Screen


class Stopped(Exception):
    """The watch ended on a signal; `code` is the exit status (130 for Ctrl-C)."""

    def __init__(self, code: int, during_run: bool):
        super().__init__(code)
        self.code = code
        self.during_run = during_run


@contextlib.contextmanager
def cbreak(stream):
    """Single keys from `stream` (a terminal), its settings restored afterwards."""
    try:
        import termios
        import tty
        fd = os.dup(stream.fileno())   # the terminal itself, whatever fd 0 is replaced by meanwhile
    except (ImportError, OSError, ValueError, AttributeError):
        yield False
        return
    try:
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
    except (OSError, termios.error):
        os.close(fd)
        yield False
        return
    try:
        yield True
    finally:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except (OSError, termios.error):
            pass
        os.close(fd)


@contextlib.contextmanager
def signals_stop(screen: Screen):
    """SIGTERM and SIGHUP raise KeyboardInterrupt, as SIGINT does; yields the signals seen.
    SIGWINCH (the window was resized) asks the screen for a full redraw."""
    seen: list[int] = []

    def stop(number, frame):
        seen.append(number)
        raise KeyboardInterrupt

    def resized(number, frame):
        screen.resized = True

    saved = {}
    for name, handler in (("SIGTERM", stop), ("SIGHUP", stop), ("SIGWINCH", resized)):
        number = getattr(signal, name, None)
        if number is not None:
            saved[number] = signal.signal(number, handler)
    try:
        yield seen
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def shown_path(lab: Path) -> str:
    """The lab as the student would type it: relative to here when below it, else its
    full path (also when it is here: `.` says nothing), with ~ for the home directory."""
    lab = Path(lab).resolve()
    try:
        rel = lab.relative_to(Path.cwd().resolve()).as_posix()
        if rel and rel != ".":
            return rel
    except (ValueError, OSError):
        pass
    home = Path.home()
    try:
        return "~/" + lab.relative_to(home).as_posix() if lab != home else "~"
    except ValueError:
        return str(lab)


def watch_lab(course: Course, day: Day, lab: Path, *, own_lab: bool, seed: int | None, tty: bool,
              colour: bool, stdout=None, stdin=None) -> int:
    """Watch `lab` until q (exit 0); Stopped on Ctrl-C, SIGTERM or SIGHUP."""
    stdout = stdout or sys.stdout
    stdin = stdin or sys.stdin
    keys_wanted = tty and _isatty(stdin)
    screen = Screen(stdout, tty=tty, unicode=can_encode(getattr(stdout, "encoding", None), "✓✗▸…·"),
                    colour=colour, size=_size if tty else _columns)
    # Forked before any thread of the watch starts: the runs happen there, checks side by side.
    grading = GradingProcess(course, day, lab, jobs=parallel.default_jobs()) if parallel.available() else None
    try:
        with signals_stop(screen) as seen, cbreak(stdin) if keys_wanted else contextlib.nullcontext(False) as keys:
            source = LiveSource(lab, keys=bool(keys), stdin=stdin)
            watch = Watch(course, day, lab, source=source, screen=screen, seed=new_seed() if seed is None else seed,
                          own_lab=own_lab, shown_lab=shown_path(lab), keys=bool(keys),
                          **({"grade": grading.grade} if grading is not None else {}))
            source.on_key = watch.on_key
            source.start()
            try:
                return watch.run()
            except KeyboardInterrupt:
                if watch.quit_asked:   # q during a run: it was stopped so that quitting does not wait
                    if watch.board.running:
                        screen.say(word("watch.quit_during", run=watch.board.run))
                    return 0
                number = seen[-1] if seen else signal.SIGINT
                raise Stopped(128 + int(number), during_run=watch.board.running) from None
            finally:
                source.close()
                screen.close()
    finally:
        if grading is not None:
            grading.close()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _size() -> tuple[int, int]:
    size = shutil.get_terminal_size()
    return max(size.columns, 20), max(size.lines, 5)


def _columns() -> tuple[int, int] | tuple[None, None]:
    """Plain output wraps only when COLUMNS says how wide (as `grader check` does)."""
    if os.environ.get("COLUMNS"):
        return _size()
    return (None, None)
