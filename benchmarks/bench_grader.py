"""Benchmark 5: grader latency, and where its time goes.

``grader check day-07 --lab solutions/day-07-session-resume`` is run as a student
runs it (the console script, in a child process), median of several runs, against
three yardsticks: the floor (benchmarks/common.py: an interpreter start with the usual
first imports, measured in the same runs; goal 30 floors), the 2 s goal, and the sum of
the wall times of the child processes the grader itself starts. ``python -S -m mca
--help`` in the solution is measured beside the floor too (goal 1.5 floors).

Those children are read from the engine in the very runs that are timed: a
``sitecustomize`` module (on PYTHONPATH of the grader process only; the grader
gives its own children an isolated interpreter) wraps ``CheckContext._record``,
through which every finished child of a check passes with its duration, and writes each one
to a file with the check that started it (from PYTEST_CURRENT_TEST). Per-check
durations come from the ``--json`` output of the same runs. One more run of our
own (``HARNESS``) imports the grader, times a few engine steps (lab copy, pytest
collection) and calls ``run_day`` as the CLI does, for the phase breakdown.

The runs use a scratch course root (a copy of course.toml, with grader/, labs/ and
solutions/ linked), so the progress file a check writes (.grader/state.json) is
the scratch root's, not the kit's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
from collections import defaultdict
from pathlib import Path

from common import (FLOOR_CODE, ROOT, SOLUTION, Row, check_ok, child_env, floor_argv, fmt_time, median,
                    run_child, verdict, write_round1)

GOAL_SECONDS = 2.0
GOAL_FLOORS = 30.0       # grader check day-07 on the solution, in floors (common.FLOOR_CODE)
GOAL_HELP_FLOORS = 1.5   # python -S -m mca --help in the lab, in floors
QUICK_CHECK = "append-is-incremental"  # one check, one child: enough to exercise the path

SITECUSTOMIZE = r"""
# Written by benchmarks/bench_grader.py: record every child the grader finishes.
import json, os
path = os.environ.get("BENCH_CHILDREN_LOG")
if path:
    from grader.checkkit.context import CheckContext
    _remember = CheckContext._record
    def _recording(self, result):
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split(" ")[0]
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"test": test, "argv": result.short_command().split(), "duration": result.duration}) + "\n")
        _remember(self, result)
    CheckContext._record = _recording
"""

HARNESS = r"""
import json, os, sys, time
t0 = time.perf_counter()
from grader.checkkit.context import CheckContext
from grader.course import find_course, load_course
import grader.engine as engine
from grader.engine.plugin import GraderPlugin
t_import = time.perf_counter()
children, marks = [], {}
remember = CheckContext._record
def recording(self, result):
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split(" ")[0]
    children.append({"test": test, "argv": result.short_command().split(), "duration": result.duration})
    remember(self, result)
CheckContext._record = recording
def timed(name, function):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            marks[name] = time.perf_counter() - start
    return wrapper
engine._context = timed("copy_lab", engine._context)
engine.run_pytest = timed("pytest", engine.run_pytest)
collect = GraderPlugin.pytest_collection_modifyitems
def modifyitems(self, session, config, items):
    marks["collected_at"] = time.perf_counter()
    return collect(self, session, config, items)
GraderPlugin.pytest_collection_modifyitems = modifyitems
t_course = time.perf_counter()
course = load_course(find_course())
day = course.find_day(sys.argv[1])
t_course = time.perf_counter() - t_course
select = sys.argv[3:] or None
t_run = time.perf_counter()
result = engine.run_day(course, day, sys.argv[2], select=select)
t_end = time.perf_counter()
print(json.dumps({
    "import": t_import - t0, "course": t_course, "run_day": t_end - t_run, "marks": marks,
    "collect": marks.get("collected_at", t_run) - t_run - marks.get("copy_lab", 0),
    "checks": [{"id": c.id, "status": c.status.value, "duration": c.duration} for c in result.all_results()],
    "children": children,
}))
"""


def parallel_jobs() -> int:
    """The --jobs a plain `grader check` uses on an idle machine: the cores (grader/engine/parallel.py;
    on a busy one it takes fewer, so the benchmark names the number)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def grader_python() -> Path:
    """A Python that can import the kit's grader (this one, else the kit's .venv)."""
    if importlib.util.find_spec("grader") is not None:
        return Path(sys.executable)
    venv = ROOT / ".venv" / "bin" / "python"
    if venv.exists():
        return venv
    raise RuntimeError("the grader is not importable: run with the kit's virtualenv (.venv/bin/python)")


def scratch_course(workdir: Path) -> Path:
    root = workdir / "course"
    root.mkdir()
    shutil.copy2(ROOT / "course.toml", root / "course.toml")
    for name in ("grader", "source", "labs", "solutions"):
        (root / name).symlink_to(ROOT / name, target_is_directory=True)
    return root


def kind_of(argv: list[str]) -> str:
    """A short name for a child of the grader: what it runs."""
    if argv[:1] == ["python"]:  # the command as a student would type it
        argv = argv[1:]
    if argv[:2] == ["-m", "mca"]:
        rest = argv[2:]
        if rest[:2] == ["log", "inspect"]:
            return "mca log inspect"
        if rest[:1] == ["fork"]:
            return "mca fork"
        return "mca turn (--resume)" if "--resume" in rest else "mca turn"
    if argv[:1] == ["-c"]:
        return "python -c harness"
    return " ".join(argv[:2])


def importtime_top(python: Path, env: dict, cwd: Path, top: int = 6) -> list[tuple[str, float]]:
    """Where `import grader.cli` spends its time: own import time summed by top-level package."""
    run = check_ok(run_child([python, "-X", "importtime", "-c", "import grader.cli"], cwd=cwd, env=env),
                   "importtime")
    totals: dict[str, float] = defaultdict(float)
    for line in run.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+\d+ \| *(\S+)", line)
        if match:
            totals[match.group(2).split(".")[0].lstrip("_")] += int(match.group(1)) / 1e6
    return sorted(totals.items(), key=lambda item: item[1], reverse=True)[:top]


def base_python() -> str:
    """The interpreter the grader's lab children run (grader/spawn/lab.py)."""
    from grader.spawn.lab import base_python as base
    return base()


def site_imports(env: dict, cwd: Path, top: int = 3) -> list[tuple[str, float]]:
    """What the base interpreter's `site` imports at start (cumulative time of site's own imports,
    .pth files included), the heaviest first."""
    done = run_child([base_python(), "-X", "importtime", "-c", "pass"], cwd=cwd, env=env)
    found = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| ( *)(\S+)", line)
        if match and len(match.group(2)) == 2:  # imported by site itself (one level below it)
            found.append((match.group(3), int(match.group(1)) / 1e6))
    return sorted(found, key=lambda item: item[1], reverse=True)[:top]


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    python = grader_python()
    script = python.parent / "grader"
    course = scratch_course(workdir)
    env = child_env({"GRADER_COURSE": str(course / "course.toml")})
    env.pop("PYTHONPATH")  # the grader sets the lab's path for its own children
    only = ["--only", QUICK_CHECK] if quick else []
    argv = ([script] if script.exists() else [python, "-m", "grader"]) + \
        ["check", "day-07", "--lab", SOLUTION, "--json", "--jobs", str(parallel_jobs()), *only]
    site = workdir / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    repeat = 1 if quick else 3
    runs = []  # (wall, children, checks) of each timed run
    serial_walls, unit_walls, help_walls = [], [], []  # --jobs 1; the floor (the unit); mca --help
    unit_argv = floor_argv(python)
    help_argv = [python, "-S", "-m", "mca", "--help"]
    for round_number in range(repeat + (0 if quick else 1)):  # a warm-up in full mode
        record = workdir / f"children-{round_number}.jsonl"
        done = run_child(argv, cwd=course, env={**env, "PYTHONPATH": str(site), "BENCH_CHILDREN_LOG": str(record)})
        report = json.loads(done.stdout)
        if done.status != 0 or any(c["status"] != "passed" for c in report["checks"]):
            raise RuntimeError(f"grader check did not pass on the solution: {done.stdout[-400:]}{done.stderr[-400:]}")
        children = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()] \
            if record.exists() else []
        serial = check_ok(run_child([*argv, "--jobs", "1"], cwd=course, env=env), "grader check --jobs 1")
        units, helps = [], []
        for _ in range(1 if quick else 3):  # the floor and mca --help alternate, so load falls on both alike
            units.append(check_ok(run_child(unit_argv, cwd=course, env=child_env()), "the floor").wall)
            helps.append(check_ok(run_child(help_argv, cwd=course, env=child_env()), "python -S -m mca --help").wall)
        if round_number or quick:
            runs.append((done.wall, children, {c["id"]: c["duration"] for c in report["checks"]}))
            serial_walls.append(serial.wall)
            unit_walls.extend(units)
            help_walls.extend(helps)
    wall = median([w for w, _, _ in runs])
    serial_wall, unit, help_wall = median(serial_walls), median(unit_walls), median(help_walls)
    child_sum = median([sum(c["duration"] for c in kids) for _, kids, _ in runs])
    children = next(kids for w, kids, _ in runs if w == wall) if len(runs) % 2 else runs[0][1]
    check_times = {cid: median([checks[cid] for _, _, checks in runs]) for cid in runs[0][2]}

    harness = check_ok(run_child([python, "-c", HARNESS, "day-07", SOLUTION, *([QUICK_CHECK] if quick else [])],
                                 cwd=course, env=env), "instrumented grader run")
    inside = json.loads(harness.stdout.strip().splitlines()[-1])

    # Start-up costs, each median of a few children.
    starts, warmup = (1, 0) if quick else (5, 1)
    inspect_root = workdir / "inspect"
    (inspect_root / ".sessions").mkdir(parents=True)
    round1_log = write_round1(inspect_root / ".sessions")
    lab_env = child_env()
    inspect_argv = [python, "-m", "mca", "log", "inspect", round1_log.stem, "--json"]
    probes = {
        "python -c pass": ([python, "-c", "pass"], env),
        "import grader.cli": ([python, "-c", "import grader.cli"], env),
        "mca log inspect, bytecode cached": (inspect_argv, lab_env),
        "mca log inspect, PYTHONDONTWRITEBYTECODE=1": (inspect_argv, child_env(bytecode=False)),
        "import mca.cli": ([python, "-c", "import mca.cli"], lab_env),
        "import mca.commands": ([python, "-c", "import mca.commands"], lab_env),
        # the agent's children run as a person runs them (in the grader's view, without -S): they
        # pay the base interpreter's `site`, with whatever .pth files its site-packages holds
        "base python -c pass": ([base_python(), "-c", "pass"], lab_env),
        "base python -S -c pass": ([base_python(), "-S", "-c", "pass"], lab_env),
    }
    if quick:  # the breakdown's start-up probes are for full runs; quick keeps the smoke run short
        probes = {}
    start_times: dict[str, list[float]] = {name: [] for name in probes}
    for round_number in range(1 - warmup, starts + 1):
        for name, (probe, probe_env) in probes.items():
            done = check_ok(run_child(probe, cwd=inspect_root, env=probe_env), name)
            if round_number:
                start_times[name].append(done.wall)
    start = defaultdict(lambda: float("nan"), {name: median(values) for name, values in start_times.items()})
    heavy = [] if quick else importtime_top(python, env, course)
    site_heavy = [] if quick else site_imports(lab_env, course)

    ratio_goal = wall / GOAL_SECONDS
    ratio_children = wall / child_sum if child_sum else float("inf")
    scope = f"--only {QUICK_CHECK}" if quick else "all 17 checks"
    mca_children = sum(1 for c in children if kind_of(c["argv"]).startswith("mca"))
    compile_cost = start["mca log inspect, PYTHONDONTWRITEBYTECODE=1"] - start["mca log inspect, bytecode cached"]
    starts_default, starts_serial = wall / unit, serial_wall / unit
    rows = [
        Row("mca-help-floors", "python -S -m mca --help in the day-7 solution, in floors", fmt_time(help_wall * 1e9),
            f"floor (python -S -c \"{FLOOR_CODE}\") {fmt_time(unit * 1e9)}", help_wall / unit,
            f"<= {GOAL_HELP_FLOORS:g}", verdict(help_wall / unit, GOAL_HELP_FLOORS),
            f"median of {len(help_walls)}, each beside a floor run"),
        Row("grader-floors", f"grader check day-07 on the solution ({scope}), checks side by side "
            f"(--jobs {parallel_jobs()}), in floors", f"{starts_default:.1f} floors",
            f"floor {fmt_time(unit * 1e9)}", starts_default, f"<= {GOAL_FLOORS:g}",
            verdict(starts_default, GOAL_FLOORS),
            f"{fmt_time(wall * 1e9)}; with --jobs 1: {starts_serial:.1f} floors ({fmt_time(serial_wall * 1e9)}), "
            f"{serial_wall / wall:.2f}x the concurrent run"),
        Row("grader-serial", "the same with --jobs 1 (one check at a time)", fmt_time(serial_wall * 1e9),
            f"checks side by side {fmt_time(wall * 1e9)}", serial_wall / wall, "- (report)", "report",
            f"{starts_serial:.1f} floors"),
        Row("grader-latency", f"grader check day-07 --lab solutions/... ({scope}), median wall",
            fmt_time(wall * 1e9), f"goal {GOAL_SECONDS:g} s", ratio_goal, "<= 1.0x", verdict(ratio_goal, 1.0),
            "" if ratio_goal <= 1 else
            f"missed by {fmt_time((wall - GOAL_SECONDS) * 1e9)}: {len(children)} children "
            f"({fmt_time(child_sum * 1e9)}) + {fmt_time((wall - child_sum) * 1e9)} of grader start, imports, "
            f"pytest and fixtures"),
        Row("grader-overhead", f"the same wall time vs the {len(children)} children it starts",
            fmt_time(wall * 1e9), f"sum of children {fmt_time(child_sum * 1e9)}", ratio_children, "<= 2.0x",
            verdict(ratio_children, 2.0),
            f"overhead {fmt_time((wall - child_sum) * 1e9)} = {(wall - child_sum) / child_sum:.2f}x the children"
            if child_sum else "no children"),
    ]

    marks = inside["marks"]
    checks_sum = sum(check_times.values())
    inside_checks = sum(c["duration"] for c in inside["checks"])
    pytest_rest = marks["pytest"] - inside["collect"] - inside_checks
    detail = [
        f"grader: where the time goes ({scope}; median of {len(runs)} CLI runs unless marked *, "
        f"* = one instrumented run):",
        f"  CLI wall                                  {fmt_time(wall * 1e9):>9}",
        f"  checks (sum of per-check durations)       {fmt_time(checks_sum * 1e9):>9}   "
        f"of which {len(children)} children {fmt_time(child_sum * 1e9)}",
        f"  everything else                           {fmt_time((wall - checks_sum) * 1e9):>9}   of which:",
        f"    interpreter start (python -c pass)      {fmt_time(start['python -c pass'] * 1e9):>9}",
        f"    import grader.cli (whole child)         {fmt_time(start['import grader.cli'] * 1e9):>9}"
        f"   own import time by package: {', '.join(f'{name} {seconds * 1e3:.0f} ms' for name, seconds in heavy)}",
        f"  * imports (grader.engine, pytest)         {fmt_time(inside['import'] * 1e9):>9}",
        f"  * load course.toml                        {fmt_time(inside['course'] * 1e9):>9}",
        f"  * copy the lab                            {fmt_time(marks.get('copy_lab', 0) * 1e9):>9}",
        f"  * pytest start + collection               {fmt_time(inside['collect'] * 1e9):>9}",
        f"  * rest of pytest (session end, teardown)  {fmt_time(pytest_rest * 1e9):>9}",
        "  per check (median duration; children it started in the median run, their sum, what they run):",
    ]
    by_test = defaultdict(list)
    for child in children:
        by_test[child["test"]].append(child)
    for check_id, duration in sorted(check_times.items(), key=lambda item: item[1], reverse=True):
        mine = by_test.get("test_" + check_id.replace("-", "_"), [])
        kinds = ", ".join(sorted({kind_of(c["argv"]) for c in mine})) or "-"
        detail.append(f"    {check_id:<26} {fmt_time(duration * 1e9):>9}  {len(mine)} children "
                      f"{fmt_time(sum(c['duration'] for c in mine) * 1e9):>9}  ({kinds})")
    kinds = defaultdict(list)
    for child in children:
        kinds[kind_of(child["argv"])].append(child["duration"])
    detail.append("  children by kind (count, sum, median):")
    for kind, durations in sorted(kinds.items(), key=lambda item: -sum(item[1])):
        detail.append(f"    {kind:<26} {len(durations):>3}  {fmt_time(sum(durations) * 1e9):>9}  "
                      f"{fmt_time(median(durations) * 1e9):>9}")
    detail.append(f"  one mca child: {fmt_time(start['mca log inspect, bytecode cached'] * 1e9)} with bytecode "
                  f"cached, {fmt_time(start['mca log inspect, PYTHONDONTWRITEBYTECODE=1'] * 1e9)} compiling from "
                  f"source (PYTHONDONTWRITEBYTECODE=1): {fmt_time(compile_cost * 1e9)} x {mca_children} mca "
                  f"children = {fmt_time(compile_cost * mca_children * 1e9)} per grading that the grader's shared "
                  f"bytecode saves")
    site_cost = start["base python -c pass"] - start["base python -S -c pass"]
    detail.append(f"  site in every agent child: python -c pass {fmt_time(start['base python -c pass'] * 1e9)} vs "
                  f"python -S -c pass {fmt_time(start['base python -S -c pass'] * 1e9)}: {fmt_time(site_cost * 1e9)} x "
                  f"{mca_children} mca children = {fmt_time(site_cost * mca_children * 1e9)} per grading (the base "
                  f"interpreter's site imports most: {', '.join(f'{n} {t * 1e3:.0f} ms' for n, t in site_heavy) or '-'}; "
                  f"the floor runs with -S)")
    lazy = start["import mca.cli"] - start["import mca.commands"]
    light = sum(1 for c in children if kind_of(c["argv"]) in ("mca log inspect", "mca fork"))
    detail.append(f"  import mca.cli {fmt_time(start['import mca.cli'] * 1e9)} vs import mca.commands "
                  f"{fmt_time(start['import mca.commands'] * 1e9)} (all that log inspect and fork need): "
                  f"{fmt_time(lazy * 1e9)} x {light} inspect/fork children = {fmt_time(lazy * light * 1e9)} per grading")
    return rows, detail
