"""Regenerate the canonical session logs that the day-07 checks run on.

    python grader/checks/day07/make_fixtures.py [SOLUTION_DIR]

Runs the reference agent (default: solutions/day-07-session-resume) with the mock
gateway, in a temporary copy of the grader's sample workspace, and keeps what it
logged under logs/ next to this script, with the real session ids as file names:

    logs/round1/<id>.jsonl      round 1: "run the tests and tell me which case fails" (8 events)
    logs/two-rounds/<id>.jsonl  the same session after `--resume "fix it"` (19 events;
                                fork points 2, 8, 9, 19)
    logs/hello/<id>.jsonl       a session that only said "hi" (4 events, no test run):
                                the older session that resume-across-processes puts
                                next to the live one, with a newer modification time

The checks that read and fork logs (5, 7-11 and some bonus checks) use these files,
so a missing replay() cannot hide a fork bug and the other way round. Ids, timestamps
and tool run times differ from run to run; the checks never assert on them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KIT = HERE.parents[2]
DEFAULT_SOLUTION = KIT / "solutions" / "day-07-session-resume"
ROUND1 = "run the tests and tell me which case fails"
SHAPES = {"round1": 8, "two-rounds": 19, "hello": 4}


def mca(solution: Path, workdir: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCA_")}
    env.update(MOCK="1", PYTHONPATH=str(solution), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-m", "mca", *args], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        sys.exit(f"`python -m mca {' '.join(args)}` failed ({done.returncode}):\n{done.stderr}")


def only_log(sessions: Path) -> Path:
    logs = sorted(sessions.glob("*.jsonl"))
    if len(logs) != 1:
        sys.exit(f"expected one session log in {sessions}, found {len(logs)}")
    return logs[0]


def fork_points(path: Path) -> list[int]:
    points = []
    for line in path.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        message = event.get("message") if event["type"] == "message" else None
        if message and (message["role"] == "user" or (message["role"] == "assistant"
                                                      and not message.get("tool_calls"))):
            points.append(event["seq"])
    return points


def keep(log: Path, name: str) -> Path:
    target_dir = HERE / "logs" / name
    shutil.rmtree(target_dir, ignore_errors=True)
    target_dir.mkdir(parents=True)
    target = target_dir / log.name
    shutil.copyfile(log, target)
    lines = target.read_bytes().splitlines(keepends=True)
    if len(lines) != SHAPES[name] or not all(line.endswith(b"\n") for line in lines):
        sys.exit(f"{name}: expected {SHAPES[name]} complete lines, got {len(lines)}")
    return target


def main(argv: list[str]) -> int:
    solution = Path(argv[0]).resolve() if argv else DEFAULT_SOLUTION
    with tempfile.TemporaryDirectory(prefix="day07-fixtures-") as tmp:
        root = Path(tmp)
        workspace = root / "workspace"
        shutil.copytree(HERE / "workspace", workspace)
        sessions = root / "sessions"
        mca(solution, workspace, "--yes", "--sessions-dir", str(sessions), ROUND1)
        keep(only_log(sessions), "round1")
        mca(solution, workspace, "--yes", "--resume", "--sessions-dir", str(sessions), "fix it")
        two = keep(only_log(sessions), "two-rounds")
        if fork_points(two) != [2, 8, 9, 19]:
            sys.exit(f"two-rounds: fork points {fork_points(two)}, expected [2, 8, 9, 19]")
        hello = root / "hello"
        mca(solution, workspace, "--sessions-dir", str(hello), "hi")
        keep(only_log(hello), "hello")
    for name in SHAPES:
        print(f"logs/{name}/{next((HERE / 'logs' / name).glob('*.jsonl')).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
