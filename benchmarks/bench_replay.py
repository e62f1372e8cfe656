"""Benchmark 2: replay close to the floor.

``read_events`` + ``replay`` of a 100,000-event log, against the floor: a bare loop
that reads the same file line by line and calls ``json.loads`` on each line (and
keeps nothing). Runs alternate between the two, the cyclic garbage collector is
collected before each run, and the figure is the median wall time.

When the goal is missed the benchmark says where the time goes: a cProfile run
(top functions by own time) and the share of time spent in the cyclic garbage
collector (``gc.callbacks``). It also times ``proposed_read_events`` below, a
prototype of the change proposed in docs/benchmarks.md, so the expected gain is a
measured figure, not a guess. The prototype lives here only; the session package
is not changed.
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


def make_proposed():
    """The proposed read loop: the same checks and results as read_events, less overhead.

    1. The cyclic GC is paused while the list is built (every Event and dict it
       makes is acyclic, yet each 700 allocations trigger a collection that walks
       the young objects, and the full collections walk everything read so far).
    2. Each line is decoded with ``JSONDecoder.raw_decode`` (documented) instead of
       ``json.loads``, skipping the two whitespace regex matches and the wrapper
       call; what follows the object must be whitespace only, as before.
    """
    use_solution()
    from mca.session.log import REQUIRED_FIELDS, Event, ReadResult

    raw_decode = json.JSONDecoder().raw_decode

    def parse_line(raw: bytes, previous_seq: int):
        try:
            text = raw.decode("utf-8")
            data, end = raw_decode(text)
        except UnicodeDecodeError:
            return None, "not valid UTF-8"
        except ValueError:
            return None, "not valid JSON"
        if text[end:].strip():
            return None, "not valid JSON"
        if type(data) is not dict:
            return None, "not a JSON object"
        try:
            seq, ts, kind = data.pop("seq"), data.pop("ts"), data.pop("type")
        except KeyError:
            missing = [name for name in REQUIRED_FIELDS if name not in data]
            return None, f"missing {', '.join(missing)}"
        if type(seq) is not int:
            return None, "seq is not an integer"
        if not isinstance(ts, str) or not isinstance(kind, str):
            return None, "ts and type must be strings"
        if seq <= previous_seq:
            return None, f"seq {seq} does not follow {previous_seq}"
        return Event(seq, ts, kind, data), None

    def read_events(path):
        events = []
        previous_seq = 0
        paused = gc.isenabled()
        gc.disable()
        try:
            with open(path, "rb") as handle:
                for line_number, raw in enumerate(handle, start=1):
                    if not raw.endswith(b"\n"):
                        return ReadResult(events, line_number, "last line incomplete")
                    event, problem = parse_line(raw, previous_seq)
                    if event is None:
                        return ReadResult(events, line_number, problem)
                    events.append(event)
                    previous_seq = event.seq
        finally:
            if paused:
                gc.enable()
        return ReadResult(events)

    return read_events


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
    proposed_read = make_proposed()

    def current(p: Path):
        return replay(read_events(p).events)

    def proposed(p: Path):
        return replay(proposed_read(p).events)

    check = current(path)
    if check.replayed + check.skipped != events or proposed(path).messages != check.messages:
        raise RuntimeError("the replay benchmark's log did not replay as expected")
    del check
    variants = {"floor": floor, "current": current, "proposed": proposed}
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
    proposed_ratio = wall["proposed"] / wall["floor"]
    rows = [
        Row("replay", f"read_events + replay, {events:,} events ({size / 2**20:.1f} MB)",
            fmt_time(wall["current"]), f"floor: bare json.loads loop {fmt_time(wall['floor'])}",
            ratio, "<= 1.5x", met, note),
        Row("replay-proposed", "prototype of the proposed read loop (GC paused, raw_decode)",
            fmt_time(wall["proposed"]), f"floor {fmt_time(wall['floor'])}", proposed_ratio, "<= 1.5x",
            verdict(proposed_ratio, 1.5),
            f"{1 - wall['proposed'] / wall['current']:.0%} less than read_events today; "
            f"cpu ratio {cpu['proposed'] / cpu['floor']:.2f}x; not in the session package"),
    ]
    return rows, detail
