"""Benchmark 2: replay close to the floor.

``read_events`` + ``replay`` of a 100,000-event log, against the floor: a bare loop
that reads the same file line by line and calls ``json.loads`` on each line (and
keeps nothing). Runs alternate between the two, the cyclic garbage collector is
collected before each run, and the figure is the median wall time.

``read_events`` pauses the cyclic garbage collector while it builds the event list;
the objects it made are then still young, and the collector's next pass over the
young generation looks at all of them. That pass is part of the cost of reading, so
the timed call ends with it (``gc.collect(0)``): the figure does not flatter the
pause by leaving its bill outside the stopwatch.

When the goal is missed the benchmark says where the time goes: a cProfile run
(top functions by own time) and the share of time spent in the cyclic garbage
collector (``gc.callbacks``).
"""

from __future__ import annotations

import cProfile
import gc
import io
import json
import pstats
import time
from pathlib import Path

from common import SESSION_ID, Row, fmt_time, make_log, median, use_solution, verdict


def floor(path: Path) -> int:
    count = 0
    with open(path, "rb") as handle:
        for line in handle:
            json.loads(line)
            count += 1
    return count


def _timed(function, path: Path) -> tuple[int, int]:
    """(wall ns, cpu ns) of one call, the previous results already collected."""
    gc.collect()
    wall, cpu = time.perf_counter_ns(), time.process_time_ns()
    result = function(path)
    wall, cpu = time.perf_counter_ns() - wall, time.process_time_ns() - cpu
    del result
    return wall, cpu


def gc_share(function, path: Path) -> float:
    """The fraction of one call's wall time spent in the cyclic garbage collector."""
    spent, started = [0], [0]

    def callback(phase, _info):
        if phase == "start":
            started[0] = time.perf_counter_ns()
        else:
            spent[0] += time.perf_counter_ns() - started[0]

    gc.callbacks.append(callback)
    try:
        wall, _ = _timed(function, path)
    finally:
        gc.callbacks.remove(callback)
    return spent[0] / wall


def profile(function, path: Path, top: int = 8) -> list[str]:
    """The top functions by own time of one cProfile'd call, as lines."""
    profiler = cProfile.Profile()
    gc.collect()
    profiler.enable()
    function(path)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    total = stats.total_tt
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    lines = []
    for (filename, line, name), (_, calls, own, cumulative, _) in rows:
        where = Path(filename).name if filename != "~" else "builtin"
        lines.append(f"  {own / total:5.1%} own  {cumulative / total:5.1%} cum  {calls:>8,} calls  "
                     f"{where}:{line}({name})")
    return lines


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    use_solution()
    from mca.session.log import read_events
    from mca.session.replay import replay

    events = 10_000 if quick else 100_000
    repeat = 3 if quick else 7
    directory = workdir / "replay"
    directory.mkdir()
    path = make_log(directory / f"{SESSION_ID}.jsonl", events)
    size = path.stat().st_size

    def current(p: Path):
        replayed = replay(read_events(p).events)
        gc.collect(0)  # the young generation's pass that the paused collector left for later
        return replayed

    check = current(path)
    if check.replayed + check.skipped != events:
        raise RuntimeError("the replay benchmark's log did not replay as expected")
    del check
    variants = {"floor": floor, "current": current}
    walls = {name: [] for name in variants}
    cpus = {name: [] for name in variants}
    for name, function in variants.items():  # warm-up
        _timed(function, path)
    for _ in range(repeat):
        for name, function in variants.items():
            wall, cpu = _timed(function, path)
            walls[name].append(wall)
            cpus[name].append(cpu)
    wall = {name: median(values) for name, values in walls.items()}
    cpu = {name: median(values) for name, values in cpus.items()}
    ratio = wall["current"] / wall["floor"]
    cpu_ratio = cpu["current"] / cpu["floor"]
    mb_s = size / 2**20 / (wall["current"] / 1e9)
    ev_s = events / (wall["current"] / 1e9)
    floor_mb_s = size / 2**20 / (wall["floor"] / 1e9)
    met = verdict(ratio, 1.5)
    detail = []
    note = f"{mb_s:.0f} MB/s, {ev_s:,.0f} events/s (floor {floor_mb_s:.0f} MB/s); cpu ratio {cpu_ratio:.2f}x"
    if met == "missed":
        share = gc_share(current, path)
        floor_share = gc_share(floor, path)
        note = f"missed by {ratio / 1.5 - 1:.0%}; " + note + f"; {share:.0%} of it in the cyclic GC"
        detail += [f"replay: where the time goes (read_events + replay, {events:,} events, "
                   f"{size / 2**20:.1f} MB):",
                   f"  cyclic GC: {share:.0%} of the wall time (the floor: {floor_share:.0%})",
                   "  cProfile, top functions by own time (share of the profiled total):"]
        detail += profile(current, path)
    rows = [
        Row("replay", f"read_events + replay, {events:,} events ({size / 2**20:.1f} MB)",
            fmt_time(wall["current"]), f"floor: bare json.loads loop {fmt_time(wall['floor'])}",
            ratio, "<= 1.5x", met, note),
    ]
    return rows, detail
