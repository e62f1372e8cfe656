"""Benchmark 3: resume latency, process start included.

The pure resume command is ``python -m mca --resume ID --sessions-dir DIR`` with
stdin at end of file: it reads and replays the log, opens it for appending (lock,
size and last-byte checks), starts the REPL, reads EOF and exits. No model turn,
so nothing is appended and every repetition resumes the same file. Beside it, the
same with a prompt (``MOCK=1``, one mock turn that appends a few events).

Baselines: ``python -c pass`` (the interpreter alone) and the same command on a
10-event session. Children run one after the other, alternating, with bytecode
cached outside the repository (PYTHONPYCACHEPREFIX), as a student's runs would.
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import SESSION_ID, Row, check_ok, child_env, fmt_time, make_log, median, run_child


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    repeat, warmup = (1, 0) if quick else (9, 1)
    sizes = (10, 10_000)
    env = child_env()
    commands = {"python -c pass": ([sys.executable, "-c", "pass"], workdir)}
    for size in sizes:
        root = workdir / f"resume-{size}"
        sessions = root / ".sessions"
        sessions.mkdir(parents=True)
        (root / "workspace").mkdir()
        make_log(sessions / f"{SESSION_ID}.jsonl", size)
        base = [sys.executable, "-m", "mca", "--resume", SESSION_ID, "--sessions-dir", str(sessions)]
        commands[f"resume @{size}"] = (base, root)
        commands[f"resume+turn @{size}"] = (base + ["--yes", "hi"], root)
    walls: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(1 - warmup, repeat + 1):  # round 0: warm-up, fills the bytecode cache
        for name, (argv, cwd) in commands.items():
            run = check_ok(run_child(argv, cwd=cwd, env=env), name)
            if name.startswith("resume @") and "messages restored" not in run.stdout + run.stderr:
                raise RuntimeError(f"{name} did not resume: {run.stdout[-300:]} {run.stderr[-300:]}")
            if round_number:
                walls[name].append(run.wall)
    t = {name: median(values) * 1e9 for name, values in walls.items()}
    big, small, bare = t["resume @10000"], t["resume @10"], t["python -c pass"]
    turn_big, turn_small = t["resume+turn @10000"], t["resume+turn @10"]
    rows = [
        Row("resume-vs-python", "python -m mca --resume ID (stdin EOF), 10,000 events",
            fmt_time(big), f"python -c pass {fmt_time(bare)}", big / bare, "- (report)", "report",
            f"{fmt_time(big - bare)} above a bare interpreter; of that {fmt_time(big - small)} is the "
            f"10,000 events, the rest mca's imports and setup"),
        Row("resume-10k-vs-10", "the same, 10,000 events vs 10 events",
            fmt_time(big), f"10 events {fmt_time(small)}", big / small, "- (report)", "report",
            f"{(big - small) / 9_990 / 1e3:.1f} us per event to read, replay and find fork points"),
        Row("resume-turn", "python -m mca --resume ID --yes hi (MOCK=1), 10,000 events",
            fmt_time(turn_big), f"10 events {fmt_time(turn_small)}", turn_big / turn_small, "- (report)",
            "report", f"one mock turn on top of the resume: +{fmt_time(turn_big - big)} @10,000"),
    ]
    return rows, []
