"""Benchmark 6: `grader watch`, the re-grade after one save, counted in floors.

``grader watch day-01 --lab COPY`` runs as a student runs it (the console script,
plain output to a pipe) on a copy of the day-1 solution. After its first run, one
exercise point's file at a time gets a line appended, as an editor's save would; the
watch re-runs that file's checks only. Two times are read off its output as the lines
arrive: the re-grade (from its `── run N` line, printed as the run starts, to its
`run N took` line, after the view) and the whole wait (from the save to that line,
so the file watcher's and the loop's debounce included).

The unit is the floor (benchmarks/common.py: ``python -S -c "import argparse,
dataclasses, json, pathlib"`` with the base interpreter), timed between the saves, so
both sides see the same load. The goal is a re-grade of at most 6 floors. The children the
grader starts in each re-grade (the import probe and those of the checks) are
counted with bench_grader's ``sitecustomize`` hook, which also times the engine's
phases (copying the lab, the pytest session from the request on, and within it the wait
for the import probe). The grading process starts each run's pytest session before the
save (grader/watch/server.py), so the wait for the request is timed and taken out.

"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench_grader import SITECUSTOMIZE, grader_python, scratch_course
from common import FLOOR_CODE, ROOT, Row, check_ok, floor_argv, fmt_time, median, run_child, verdict

DAY = "day-01"
SOLUTION_DAY = ROOT / "solutions" / "day-01-repl-gateway"
GOAL_FLOORS = 6.0  # a re-grade after a one-check save, in floors
FILES = ("mca/repl.py", "mca/chat.py", "mca/gateway/openai_compat.py")   # E5; E1, E2; E3, E4


# bench_grader's hook (every child the grader finishes), plus the time of the engine's
# phases in each run: copying the lab, the pytest session, the wait for the import probe in it.
WATCH_SITE = SITECUSTOMIZE + r"""
phases = os.environ.get("BENCH_PHASES_LOG")
if phases:
    import time
    import grader.engine as _engine
    def _timed(name, function):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                with open(phases, "a", encoding="utf-8") as log:
                    log.write(json.dumps({"phase": name, "seconds": time.perf_counter() - start,
                                          "end": time.monotonic()}) + "\n")
        return timed
    for _name in ("_context", "run_pytest"):
        setattr(_engine, _name, _timed(_name, getattr(_engine, _name)))
    # the import probe runs while the checks are prepared; what is timed is the wait for it that is left
    _engine.Probe._judge = _timed("_judge", _engine.Probe._judge)
    # the grading process starts each run's pytest session before the request comes: the wait
    # for the request (inside the session) is timed so that it can be taken out of the session's time
    import grader.watch.server as _server
    _server._next = _timed("_next", _server._next)
"""
PHASES = {"_context": "copy", "_judge": "probe", "run_pytest": "pytest", "_next": "idle"}


def base_python() -> str:
    base = getattr(sys, "_base_executable", None)
    return base if base and os.path.exists(base) else sys.executable


class Watcher:
    """`grader watch` in a child, its stdout read line by line with arrival times."""

    def __init__(self, argv, cwd: Path, env: dict):
        self.proc = subprocess.Popen([str(a) for a in argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in iter(self.proc.stdout.readline, ""):
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def wait_for(self, pattern: str, timeout: float = 300) -> float:
        """The arrival time of the next line matching `pattern`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                at, line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"grader watch ended: {self.proc.stderr.read()[-400:]}\n"
                                   + "\n".join(self.seen[-20:]))
            self.seen.append(line)
            if re.search(pattern, line):
                return at
        raise RuntimeError(f"no line like {pattern!r} within {timeout} s:\n" + "\n".join(self.seen[-20:]))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(2)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _count(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    python = grader_python()
    script = python.parent / "grader"
    course = scratch_course(workdir)
    lab = workdir / "lab"
    shutil.copytree(SOLUTION_DAY, lab, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    site = workdir / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(WATCH_SITE, encoding="utf-8")
    help_env = {k: v for k, v in os.environ.items() if not k.startswith(("MCA_", "PYTHON"))}
    help_env.update({"MOCK": "1", "PYTHONPYCACHEPREFIX": str(workdir / "pycache")})
    floor = floor_argv(base_python())
    starts: list[float] = []

    def child_start() -> None:  # the unit: the floor, timed between the saves
        starts.append(check_ok(run_child(floor, cwd=lab, env=help_env), "the floor").wall)

    files = FILES[:1] if quick else FILES
    repeat = 1 if quick else 3
    argv = ([script] if script.exists() else [python, "-m", "grader"]) + ["watch", DAY, "--lab", lab]
    child_start()  # fills the bytecode cache of the unit
    starts.clear()
    variants = {"": None}
    measured = {name: watch_saves(workdir / f"run{name}", argv, course, site, lab, files, repeat, child_start,
                                  shared)
                for name, shared in variants.items()}
    unit = median(starts)

    rows, detail = [], [f"watch: re-grade after one save ({DAY}, solution copy; unit: the floor, python -S -c "
                        f"\"{FLOOR_CODE}\" "
                        f"= {fmt_time(unit * 1e9)}, median of {len(starts)}, timed between the saves):"]
    for variant, by_file in measured.items():
        for file in files:
            runs = by_file[file]
            regrade = median([r["regrade"] for r in runs])
            wait = median([r["wait"] for r in runs])
            children = runs[0]["children"]
            ratio = regrade / unit
            name = "watch-" + Path(file).stem.replace("_", "-") + variant
            note = f"{children} children (probe included); save to view {fmt_time(wait * 1e9)}"
            rows.append(Row(name, f"save {file}: re-grade of {runs[0]['checks']} checks, median",
                            fmt_time(regrade * 1e9), f"floor {fmt_time(unit * 1e9)}", ratio,
                            f"<= {GOAL_FLOORS:g}x", verdict(ratio, GOAL_FLOORS), note))
            for r in runs:  # the session's time once the request came (it started before the save)
                if "idle_end" in r and "pytest_end" in r:
                    r["pytest"] = r["pytest_end"] - r["idle_end"]
            part = {key: median([r.get(key, float("nan")) for r in runs])
                    for key in ("copy", "probe", "probe_child", "pytest", "check_children")}
            rest = regrade - part["pytest"]  # the copy is made in the session, once the request came
            detail.append(f"  {file:<30} {runs[0]['checks']:>2} checks  {children:>2} children  re-grade "
                          f"{fmt_time(regrade * 1e9):>9} = {ratio:.1f} floors  save-to-view "
                          f"{fmt_time(wait * 1e9):>9}  ({len(runs)} saves)")
            detail.append(f"      copy {fmt_time(part['copy'] * 1e9)} ({part['copy'] / unit:.1f} floors), pytest "
                          f"session from the request on (the copy included) {fmt_time(part['pytest'] * 1e9)} ({part['pytest'] / unit:.1f}; of it waiting for "
                          f"the import probe {fmt_time(part['probe'] * 1e9)}, whose child ran "
                          f"{fmt_time(part['probe_child'] * 1e9)}; the checks' children "
                          f"{fmt_time(part['check_children'] * 1e9)}), the watch itself {fmt_time(rest * 1e9)} "
                          f"({rest / unit:.1f})")
    return rows, detail


def watch_saves(workdir: Path, argv, course: Path, site: Path, lab: Path, files, repeat: int, child_start,
                shared: Path | None) -> dict[str, list[dict]]:
    """One `grader watch` child: its first run, then `repeat` saves of each file, each
    measured; a unit child start is timed before and after every save."""
    scratch = workdir / "tmp"
    scratch.mkdir(parents=True)
    children_log = workdir / "children.jsonl"
    phases_log = workdir / "phases.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCA_", "GRADER_"))}
    env.update({"GRADER_COURSE": str(course / "course.toml"), "PYTHONPATH": str(site), "TMPDIR": str(scratch),
                "BENCH_CHILDREN_LOG": str(children_log), "BENCH_PHASES_LOG": str(phases_log),
                "PYTHONIOENCODING": "utf-8", "GRADER_LANG": "en"})
    env.pop("COLUMNS", None)
    watcher = Watcher(argv, cwd=course, env=env)
    measured: dict[str, list[dict]] = {file: [] for file in files}
    try:
        watcher.wait_for(r"^run 1 took ")
        run_number = 1
        for _ in range(repeat):
            for file in files:
                child_start()
                logged, timed = _count(children_log), _count(phases_log)
                run_number += 1
                saved = time.perf_counter()
                with (lab / file).open("a", encoding="utf-8") as handle:
                    handle.write(f"\n# save {run_number}\n")
                began = watcher.wait_for(rf"^── run {run_number} ")
                header = watcher.seen[-1]
                ended = watcher.wait_for(rf"^run {run_number} took ")
                kids = [json.loads(line) for line in children_log.read_text(encoding="utf-8").splitlines()[logged:]]
                phases = {}
                for line in phases_log.read_text(encoding="utf-8").splitlines()[timed:]:
                    entry = json.loads(line)
                    phases[PHASES[entry["phase"]]] = entry["seconds"]
                    phases[PHASES[entry["phase"]] + "_end"] = entry["end"]
                checks = re.search(r"(\d+) of (\d+) checks", header)
                measured[file].append({"regrade": ended - began, "wait": ended - saved, "children": len(kids),
                                       "checks": int(checks.group(1)) if checks else -1, **phases,
                                       "probe_child": sum(k["duration"] for k in kids if k["test"] == "?"),
                                       "check_children": sum(k["duration"] for k in kids if k["test"] != "?")})
                child_start()
    finally:
        watcher.stop()
    return measured
