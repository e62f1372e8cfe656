"""Benchmark 4: fork streams.

Peak memory of ``fork`` at the middle of a 100,000-event log vs of a 100-event
log, each in a fresh child process: the child imports the session package, forks,
and reports ``ru_maxrss`` (the whole process's peak RSS) and the tracemalloc peak
of the fork call alone. Beside it, the CLI's ``python -m mca fork ID N``, measured
the same way (peak RSS from ``os.wait4``), because that is what a user runs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from common import (SESSION_ID, Row, check_ok, child_env, fmt_mb, make_log, median, run_child,
                    user_seq_near)

FORK_HARNESS = r"""
import json, resource, sys, tracemalloc
from pathlib import Path
from mca.session.fork import fork
trace = sys.argv[4] == "trace"
if trace:
    tracemalloc.start()
child = fork(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
peak = tracemalloc.get_traced_memory()[1] if trace else None
print(json.dumps({"maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "traced_peak": peak, "child": child}))
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
                rss[events].append(report["maxrss_kib"] * 1024)
            if round_number == 1:
                traced[events] = json.loads(check_ok(run_child(argv + ["trace"], cwd=sessions.parent, env=env),
                                                     "fork harness").stdout)["traced_peak"]
                _clean(sessions)
            run = check_ok(run_child([sys.executable, "-m", "mca", "fork", SESSION_ID, at_seq],
                                     cwd=sessions.parent, env=env), "mca fork")
            _clean(sessions)
            if round_number:
                cli[events].append(run.maxrss_kib * 1024)
    peak = {events: median(values) for events, values in rss.items()}
    peak_cli = {events: median(values) for events, values in cli.items()}
    diff = peak[large] - peak[small]
    diff_cli = peak_cli[large] - peak_cli[small]
    at = prepared[large][1]
    return [
        Row("fork-memory", f"fork() at seq {at:,} of {large:,} events: child's peak RSS",
            fmt_mb(peak[large]), f"fork of {small} events {fmt_mb(peak[small])}", peak[large] / peak[small],
            f"<= +{LIMIT_MB} MB", "met" if diff <= LIMIT_MB * 2**20 else "missed",
            f"+{fmt_mb(diff)}; tracemalloc peak of the call {fmt_mb(traced[large])} vs {fmt_mb(traced[small])}: "
            "the prefix is found line by line and copied in 64 KiB chunks"),
        Row("fork-memory-cli", f"python -m mca fork ID {at:,} on {large:,} events: peak RSS",
            fmt_mb(peak_cli[large]), f"same on {small} events {fmt_mb(peak_cli[small])}",
            peak_cli[large] / peak_cli[small], f"<= +{LIMIT_MB} MB",
            "met" if diff_cli <= LIMIT_MB * 2**20 else "missed",
            f"+{fmt_mb(diff_cli)}" + ("" if diff_cli <= LIMIT_MB * 2**20 else
                                      "; commands.fork_session reads every event (read_events) to "
                                      "check the fork point before fork() streams")),
    ], []
