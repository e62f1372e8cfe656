"""Benchmark 1: append is O(1).

``SessionLog.append`` on logs that already hold 10, 10,000 and 100,000 events,
beside the snapshot approach the lesson warns against: the whole session kept in
memory and rewritten as one JSON file every turn (write a temp file, then
``os.replace``), measured the same way at the same sizes.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from common import SESSION_ID, Row, fmt_time, make_log, median, use_solution, verdict

# A typical event: a user message of about 60 characters.
MESSAGE = {"role": "user", "content": "run the tests and tell me which case fails, then fix it"}


def _sizes(quick: bool) -> tuple[int, int, int]:
    return (10, 1_000, 10_000) if quick else (10, 10_000, 100_000)


def bench_log(workdir: Path, sizes, rounds: int, batch: int) -> dict[int, float]:
    """Median ns per append at each size.

    Every round restores each file to its starting size (outside the timing), then
    times ``batch`` single appends; rounds visit the sizes in turn, so a noisy
    moment hits all of them alike. The log never holds more than size + batch.
    """
    use_solution()
    from mca.session.log import SessionLog

    logs = {}
    for size in sizes:
        directory = workdir / f"append-{size}"
        directory.mkdir()
        path = make_log(directory / f"{SESSION_ID}.jsonl", size)
        logs[size] = (path, path.stat().st_size, SessionLog.open_append(path, last_seq=size))
    samples: dict[int, list[int]] = {size: [] for size in sizes}
    clock = time.perf_counter_ns
    try:
        for round_number in range(rounds + 1):  # round 0 is the warm-up
            for size in sizes:
                path, start_size, log = logs[size]
                os.truncate(path, start_size)
                log.next_seq = size + 1
                times = samples[size]
                for _ in range(batch):
                    start = clock()
                    log.append("message", message=MESSAGE)
                    elapsed = clock() - start
                    if round_number:
                        times.append(elapsed)
    finally:
        for _, _, log in logs.values():
            log.close()
    return {size: median(times) for size, times in samples.items()}


def _snapshot_event(seq: int) -> dict:
    return {"seq": seq, "ts": "2026-11-29T10:33:09.653Z", "type": "message", "message": MESSAGE}


def bench_snapshot(workdir: Path, sizes, reps: dict[int, int]) -> dict[int, float]:
    """Median ns per turn of the snapshot approach: add one event, rewrite everything.

    The session is held in memory (as that design does) and dumped as one JSON
    document to a temp file that then replaces the old snapshot.
    """
    results = {}
    for size in sizes:
        directory = workdir / f"snapshot-{size}"
        directory.mkdir()
        source = make_log(directory / "source.jsonl", size)
        session = [json.loads(line) for line in source.read_bytes().splitlines()]
        target = directory / "session.json"
        temp = directory / "session.json.tmp"

        def turn() -> None:
            session.append(_snapshot_event(len(session) + 1))
            with open(temp, "w", encoding="utf-8") as handle:
                json.dump(session, handle, ensure_ascii=False)
            os.replace(temp, target)
            session.pop()  # keep the size fixed across repetitions

        turn()  # warm-up
        times = []
        for _ in range(reps[size]):
            start = time.perf_counter_ns()
            turn()
            times.append(time.perf_counter_ns() - start)
        results[size] = median(times)
    return results


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    small, middle, large = sizes = _sizes(quick)
    log = bench_log(workdir, sizes, rounds=3 if quick else 10, batch=100 if quick else 200)
    snap_reps = {small: 50, middle: 5, large: 3} if quick else {small: 200, middle: 20, large: 5}
    snap = bench_snapshot(workdir, sizes, snap_reps)

    def figures(values: dict[int, float]) -> str:
        return " / ".join(f"{fmt_time(values[s])} @{s:,}" for s in sizes)

    ratio = log[large] / log[small]
    log_row = Row(
        "append-log", f"SessionLog.append, median per event @10 / @{middle:,} / @{large:,} events",
        figures(log), f"the same @{small} events", ratio, "<= 1.2x", verdict(ratio, 1.2),
        "O_APPEND write of one line; cost does not depend on what the file holds"
        if ratio <= 1.2 else f"missed by {ratio / 1.2 - 1:.0%}: look at noise first (rerun), then at append()")
    snap_ratio = snap[large] / snap[small]
    snap_row = Row(
        "append-snapshot", "snapshot per turn (json.dump whole session, temp + replace), median",
        figures(snap), f"the same @{small} events", snap_ratio, "- (shows growth)", "report",
        f"@{large:,} events one snapshot turn costs {snap[large] / log[large]:,.0f}x one log append")
    return [log_row, snap_row], []
