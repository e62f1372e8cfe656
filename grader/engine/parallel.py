"""Checks that do not share setup run at the same time, each group in a forked worker.

A day's checks spend most of their time waiting for the lab's children, so the engine
runs independent checks side by side, up to `jobs` at once. pytest collects the
checks module once, in the grader's process; then the items are put in groups:
items that use the same shared fixture (a fixture of the checks folder with a scope
wider than one test: day 7's round 1 and its log, the forks it judges) stay in one
group, so the setup they share still runs once, and the items of one check stay
together. Each group runs in a child of the grader made by fork(): it inherits the
collected session, runs its items through pytest's usual protocol (fixture setup and
teardown included) and sends each check's Outcome back over a pipe as it finishes.

What a concurrent run gives is what a serial one (`--jobs 1`) gives: each check's
inputs come from the run's seed and its own name (`ctx.rng`), each check's scratch
directories are named after the check (`ctx.tmp`), so its reproduce lines are the same
too, and the report keeps the contract's order whatever finishes first. Progress
(`on_done`) is reported in that order as well.

Ctrl-C reaches the workers with the grader (one process group on a terminal, or
passed on by the grader): each stops its check, whose children the spawn layer kills,
and exits; the grader then raises KeyboardInterrupt as a serial run would.
"""

from __future__ import annotations

import os
import pickle
import selectors
import signal
import struct
import sys
import threading
import time
from pathlib import Path

_HEADER = struct.Struct("!I")
WORKER_GRACE = 10.0  # seconds a worker gets to stop its check after Ctrl-C before it is killed


def available() -> bool:
    """fork() is there, and safe: this process runs one thread. A child forked from a process
    with other threads (`grader watch` reads keys and file events in threads) inherits the
    locks they held at that moment, and can wait on one forever; such a process runs its
    checks one after another."""
    return hasattr(os, "fork") and sys.platform != "win32" and threading.active_count() == 1


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_jobs() -> int:
    """The cores, less those the machine is already busy with (as `make -l` does): checks
    side by side gain nothing on cores that are taken, and the lab's children, slower for
    it, come nearer their time limits. A batch grading several labs at once, or a test
    suite, therefore grades each lab one check at a time; an idle machine uses every core."""
    count = cores()
    try:
        busy = int(os.getloadavg()[0])
    except (AttributeError, OSError):
        busy = 0
    return max(1, min(count, count - busy + 1))


# --------------------------------------------------------------------------- grouping

def _shared_fixtures(item, folder: Path) -> set[str]:
    """The fixtures of the checks folder, wider than one test, that `item` uses."""
    shared = set()
    info = getattr(item, "_fixtureinfo", None)
    for name, definitions in (getattr(info, "name2fixturedefs", None) or {}).items():
        if not definitions:
            continue
        definition = definitions[-1]
        scope = getattr(definition.scope, "value", definition.scope)
        if scope == "function":
            continue
        source = getattr(getattr(definition, "func", None), "__code__", None)
        try:
            mine = source is not None and Path(source.co_filename).resolve().is_relative_to(folder)
        except (OSError, ValueError):
            mine = False
        if mine:
            shared.add(name)
    return shared


def groups(items: list, check_of, folder: Path) -> list[list]:
    """`items` cut into groups that can run apart: one group per set of items joined by a
    shared fixture of `folder` or by being the same check (`check_of(item)`). Within a
    group the items keep their order; groups come in the order of their first item."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_by_key: dict[tuple, int] = {}
    for index, item in enumerate(items):
        keys = [("check", check_of(item))] + [("fixture", name) for name in _shared_fixtures(item, folder)]
        for key in keys:
            if key in first_by_key:
                a, b = find(first_by_key[key]), find(index)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                first_by_key[key] = index
    joined: dict[int, list] = {}
    for index, item in enumerate(items):
        joined.setdefault(find(index), []).append(item)
    return list(joined.values())


# --------------------------------------------------------------------------- the pipe

def send(fd: int, message) -> None:
    """One message (anything pickle takes) down a pipe, framed by its length."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class Reader:
    """Messages from one worker (or grader/watch/server.py's grading process), as its pipe
    delivers bytes."""

    def __init__(self, fd: int, pid: int, group: list):
        self.fd, self.pid, self.group = fd, pid, group
        self.buffer = b""
        self.closed = False
        self.status: int | None = None

    def feed(self) -> list:
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.closed = True
            return []
        self.buffer += chunk
        messages = []
        while len(self.buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self.buffer)
            if len(self.buffer) < _HEADER.size + size:
                break
            messages.append(pickle.loads(self.buffer[_HEADER.size:_HEADER.size + size]))
            self.buffer = self.buffer[_HEADER.size + size:]
        return messages


# --------------------------------------------------------------------------- running

def _die_with(parent: int) -> None:
    """In a new worker: SIGKILL when the grader dies, even by SIGKILL (PR_SET_PDEATHSIG; the
    kernel then kills the worker's own children the same way), and the subreaper of the
    orphans its lab children leave (grader/spawn/groups.py)."""
    from grader.spawn import child, groups
    with child._running_lock:
        child._running.clear()  # the grader's own children are not this worker's to stop
    groups.adopt_orphans()
    groups._prctl(groups.PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the grader died before the line above
        os._exit(1)


def _worker(session, group: list, write_fd: int, plugin) -> None:
    """In the forked child: run `group` as pytest's own loop would, then leave at once
    (the grader's process, not this copy of it, finishes the pytest session)."""
    from grader.spawn import groups
    code = 0
    try:
        plugin.on_done = lambda check_id, outcome: send(write_fd, ("done", check_id, outcome))
        for index, item in enumerate(group):
            nextitem = group[index + 1] if index + 1 < len(group) else None
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            if session.shouldstop or session.shouldfail:
                break
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        code = 130
        try:  # what a serial run's session end does: the fixtures' own cleanup
            session._setupstate.teardown_exact(None)
        except BaseException:  # noqa: BLE001 - stopping anyway
            pass
        try:
            send(write_fd, ("interrupted",))
        except OSError:
            pass
    except BaseException as exc:  # noqa: BLE001 - reported to the grader, which names it
        code = 1
        try:
            send(write_fd, ("broke", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass
    finally:
        try:
            from grader.spawn.child import stop_all
            stop_all()              # what a check that raised left running
            groups.sweep_orphans()  # what a lab child left behind goes with the worker
        except BaseException:  # noqa: BLE001 - leaving anyway
            pass
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        os._exit(code)


def run_groups(session, all_groups: list[list], jobs: int, plugin, order: list[str], broken) -> None:
    """Run `all_groups` in forked workers, at most `jobs` at a time, and hand each check's
    Outcome to `plugin.finish_check(check_id, outcome)` in `order` (the items' check ids in
    collection order). `broken(check_id, status, why)` makes the Outcome of a check whose
    worker stopped without reporting it (`status`: its exit code, negative for a signal;
    `why`: what the worker said, if anything). Raises KeyboardInterrupt after Ctrl-C, once every
    worker has stopped."""
    pending = sorted(range(len(all_groups)), key=lambda i: -len(all_groups[i]))  # the largest first
    selector = selectors.DefaultSelector()
    running: dict[int, Reader] = {}
    finished: dict[str, object] = {}
    reported = 0
    interrupted = False

    def report_in_order() -> None:
        nonlocal reported
        while reported < len(order) and order[reported] in finished:
            plugin.finish_check(order[reported], finished[order[reported]])
            reported += 1

    parent = os.getpid()

    def start(group: list) -> None:
        read_fd, write_fd = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker
            _die_with(parent)
            os.close(read_fd)
            for other in running.values():
                try:
                    os.close(other.fd)
                except OSError:
                    pass
            _worker(session, group, write_fd, plugin)
        os.close(write_fd)
        reader = Reader(read_fd, pid, group)
        running[read_fd] = reader
        selector.register(read_fd, selectors.EVENT_READ, reader)

    def reap(reader: Reader) -> None:
        selector.unregister(reader.fd)
        os.close(reader.fd)
        del running[reader.fd]
        try:
            _, status = os.waitpid(reader.pid, 0)
            reader.status = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            reader.status = None
        for item in reader.group:
            check_id = plugin.check_id_of(item)
            if check_id not in finished:
                if interrupted:
                    continue
                finished[check_id] = broken(check_id, reader.status, getattr(reader, "broke", None))

    def stop_all() -> None:
        for reader in running.values():
            try:
                os.kill(reader.pid, signal.SIGINT)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + WORKER_GRACE
        while running:
            left = deadline - time.monotonic()
            if left <= 0:
                for reader in list(running.values()):
                    try:
                        os.kill(reader.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    reap(reader)
                break
            for key, _ in selector.select(timeout=min(left, 0.5)):
                reader = key.data
                try:
                    reader.feed()
                except OSError:
                    reader.closed = True
                if reader.closed:
                    reap(reader)

    try:
        while pending or running:
            while pending and len(running) < jobs:
                start(all_groups[pending.pop(0)])
            for key, _ in selector.select(timeout=1.0):
                reader = key.data
                for message in reader.feed():
                    if message[0] == "done":
                        finished[message[1]] = message[2]
                    elif message[0] == "broke":
                        reader.broke = message[1]
                    elif message[0] == "interrupted":
                        raise KeyboardInterrupt
                if reader.closed:
                    reap(reader)
            report_in_order()
    except KeyboardInterrupt:
        interrupted = True
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            stop_all()
        finally:
            signal.signal(signal.SIGINT, previous)
            selector.close()
        raise
    selector.close()
    report_in_order()
