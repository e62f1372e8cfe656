"""The day-7 scenario end to end: real processes, a real disk, the mock model.

Each process is a fresh `python -m mca` run from a copy of the reference solution,
exactly as a student runs the lab. Nothing is shared between processes but the
files in the sessions dir: that is what resume has to prove.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / "day-07-session-resume"
ROUND_ONE = "run the tests and tell me which case fails"


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    copy = tmp_path / "lab"
    shutil.copytree(SOLUTION, copy, ignore=shutil.ignore_patterns("__pycache__", ".sessions", ".grader"))
    return copy


def mca(lab: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCA_")}
    env.update(MOCK="1", PYTHONDONTWRITEBYTECODE="1", NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "mca", *args], cwd=lab, env=env, capture_output=True,
                          text=True, timeout=timeout)


def log_lines(lab: Path) -> tuple[Path, list[dict]]:
    (path,) = sorted((lab / ".sessions").glob("s-*.jsonl"))
    return path, [json.loads(line) for line in path.read_text().splitlines()]


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]


def workspace_tests(lab: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unittest", "-q"], cwd=lab / "workspace", capture_output=True,
                          text=True, timeout=60)


def test_round_one_then_resume_in_a_second_process(lab):
    first = mca(lab, "--yes", ROUND_ONE)
    assert first.returncode == 0, first.stderr
    path, events = log_lines(lab)
    assert [e["seq"] for e in events] == list(range(1, 9))
    assert [e["type"] for e in events] == ["message", "message", "usage", "message", "tool_end", "message",
                                           "usage", "message"]
    assert [e["message"]["role"] for e in events if e["type"] == "message"] == [
        "system", "user", "assistant", "tool", "assistant"]
    assert "test_divide_by_zero" in events[-1]["message"]["content"]
    assert workspace_tests(lab).returncode != 0

    second = mca(lab, "--resume", "--yes", "fix it")
    assert second.returncode == 0, second.stderr
    path_after, events = log_lines(lab)
    assert path_after == path  # a clean log is continued, not forked
    assert len(events) == 19 and [e["seq"] for e in events] == list(range(1, 20))
    reply = next(e["message"]["content"] for e in events[9:] if e["type"] == "message"
                 and e["message"]["role"] == "assistant")
    assert "test_divide_by_zero" in first_sentence(reply)
    points = [e["seq"] for e in events if e["type"] == "message" and (
        e["message"]["role"] == "user" or (e["message"]["role"] == "assistant" and not e["message"].get("tool_calls")))]
    assert points == [2, 8, 9, 19]
    assert workspace_tests(lab).returncode == 0


def test_without_the_history_the_model_has_no_record(lab):
    result = mca(lab, "--yes", "fix it")
    assert result.returncode == 0, result.stderr
    _path, events = log_lines(lab)
    assert "no record" in events[-1]["message"]["content"]


def test_a_hand_truncated_log_resumes_from_the_last_valid_point(lab):
    """Cut inside the final answer: the finished tool round (lines 3-6) is kept, the fork
    starts at its end (seq 6), and the model answers from that test run."""
    assert mca(lab, "--yes", ROUND_ONE).returncode == 0
    path, _events = log_lines(lab)
    os.truncate(path, path.stat().st_size - 30)
    damaged = hashlib.sha256(path.read_bytes()).hexdigest()

    resumed = mca(lab, "--resume", "--yes", "fix it")
    assert resumed.returncode == 0, resumed.stderr
    assert "test_divide_by_zero" in resumed.stdout and "no record" not in resumed.stdout, resumed.stdout
    assert "log stopped at line 8: last line incomplete" in resumed.stdout + resumed.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == damaged
    forks = [p for p in (lab / ".sessions").glob("s-*.jsonl") if p != path]
    assert len(forks) == 1
    events = [json.loads(line) for line in forks[0].read_text().splitlines()]
    assert [e["type"] for e in events[:7]] == ["message", "message", "usage", "message", "tool_end", "message", "fork"]
    assert events[6] == {**events[6], "type": "fork", "from": path.stem, "atSeq": 6}

    again = mca(lab, "--resume", "--yes", "thanks")  # the recovery fork is the latest and keeps its new events
    assert again.returncode == 0, again.stderr
    assert "log stopped" not in again.stdout + again.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == damaged
    assert workspace_tests(lab).returncode == 0


def test_resume_of_an_unknown_id_exits_1_and_creates_nothing(lab):
    result = mca(lab, "--resume", "s-20990101-000000-abcd", "hi")
    assert result.returncode == 1
    assert "s-20990101-000000-abcd" in result.stderr + result.stdout
    sessions = lab / ".sessions"
    assert not sessions.exists() or not any(sessions.iterdir())
