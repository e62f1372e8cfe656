"""Benchmark 4: fork streams.

Peak memory of ``fork`` at the middle of a 100,000-event log vs of a 100-event
log, each in a fresh child process: the child imports the session package, forks,
and reports its peak RSS and the tracemalloc peak of the fork call alone. Beside
it, the CLI's ``python -m mca fork ID N``, run through ``runpy`` exactly as
``-m`` does, with the peak RSS read when it exits.

The peak RSS is VmHWM from /proc/self/status (the high-water mark of the child's
own address space). Not ``ru_maxrss``: on Linux a child's ru_maxrss starts at the
RSS its parent had when it forked, so it would measure this benchmark process.
Where /proc is missing, ru_maxrss is the fallback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from common import (SESSION_ID, Row, check_ok, child_env, fmt_mb, make_log, median, run_child,
                    user_seq_near)

PEAK = r"""
def peak_rss():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource, sys
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024
"""

FORK_HARNESS = PEAK + r"""
import json, sys, tracemalloc
from pathlib import Path
from mca.session.fork import fork
trace = sys.argv[4] == "trace"
if trace:
    tracemalloc.start()
child = fork(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
traced = tracemalloc.get_traced_memory()[1] if trace else None
print(json.dumps({"peak": peak_rss(), "traced_peak": traced, "child": child}))
"""

CLI_HARNESS = PEAK + r"""
import runpy, sys
sys.argv[0] = "mca"
try:
    runpy.run_module("mca", run_name="__main__", alter_sys=True)
finally:
    sys.stderr.write(f"\nPEAK {peak_rss()}\n")
"""

LIMIT_MB = 10


def _prepare(workdir: Path, events: int) -> tuple[Path, int]:
    sessions = workdir / f"fork-{events}" / ".sessions"
    sessions.mkdir(parents=True)
    make_log(sessions / f"{SESSION_ID}.jsonl", events)
    return sessions, user_seq_near(events, events // 2)


def _clean(sessions: Path) -> None:
    for path in sessions.glob("*.jsonl"):
        if path.stem != SESSION_ID:
            path.unlink()


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    small, large = (100, 10_000) if quick else (100, 100_000)
    repeat, warmup = (1, 0) if quick else (3, 1)
    env = child_env()
    prepared = {events: _prepare(workdir, events) for events in (small, large)}
    rss = {events: [] for events in prepared}
    traced = {}
    cli = {events: [] for events in prepared}
    for round_number in range(1 - warmup, repeat + 1):  # round 0: warm-up, fills the bytecode cache
        for events, (sessions, at_seq) in prepared.items():
            argv = [sys.executable, "-c", FORK_HARNESS, sessions, SESSION_ID, at_seq]
            report = json.loads(check_ok(run_child(argv + ["plain"], cwd=sessions.parent, env=env),
                                         "fork harness").stdout)
            _clean(sessions)
            if round_number:
                rss[events].append(report["peak"])
            if round_number == 1:
                traced[events] = json.loads(check_ok(run_child(argv + ["trace"], cwd=sessions.parent, env=env),
                                                     "fork harness").stdout)["traced_peak"]
                _clean(sessions)
            done = check_ok(run_child([sys.executable, "-c", CLI_HARNESS, "fork", SESSION_ID, at_seq],
                                      cwd=sessions.parent, env=env), "mca fork")
            _clean(sessions)
            if round_number:
                cli[events].append(int(done.stderr.rsplit("PEAK ", 1)[1]))
    peak = {events: median(values) for events, values in rss.items()}
    peak_cli = {events: median(values) for events, values in cli.items()}
    diff = peak[large] - peak[small]
    diff_cli = peak_cli[large] - peak_cli[small]
    at = prepared[large][1]
    limit = LIMIT_MB * 2**20
    return [
        Row("fork-memory", f"fork() at seq {at:,} of {large:,} events: child's peak RSS",
            fmt_mb(peak[large]), f"fork of {small} events {fmt_mb(peak[small])}", peak[large] / peak[small],
            f"<= +{LIMIT_MB} MB", "met" if diff <= limit else "missed",
            f"+{fmt_mb(diff)}; tracemalloc peak of the call {fmt_mb(traced[large])} vs {fmt_mb(traced[small])}"
            + (": the prefix is found line by line and copied in 64 KiB chunks" if diff <= limit else "")),
        Row("fork-memory-cli", f"python -m mca fork ID {at:,} on {large:,} events: peak RSS",
            fmt_mb(peak_cli[large]), f"same on {small} events {fmt_mb(peak_cli[small])}",
            peak_cli[large] / peak_cli[small], f"<= +{LIMIT_MB} MB",
            "met" if diff_cli <= limit else "missed",
            f"+{fmt_mb(diff_cli)}" + ("" if diff_cli <= limit else
                                      f" (missed by {fmt_mb(diff_cli - limit)}): commands.fork_session reads "
                                      "every event (read_events) to list fork points before fork() streams")),
    ], []
