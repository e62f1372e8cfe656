"""Day 7's resume and recovery screens as a user meets them: ``python -m mca`` in real
child processes (the day-7 solution, the mock model), on session logs made by a real
round and then copied under chosen ids or damaged by hand.

What is proven: ``--resume ARG`` takes an ARG that looks like an id or a piece of one
as an id (a unique piece resumes that session; none or several: exit 2, the close
matches listed, nothing created, no model call), ``--resume -- WORD`` sends WORD as a
prompt; after damage the explanation comes first (where, why, how many lines were left
unread), then ``resumed <new id>``; ``/fork N`` and ``fork ID N`` say when there is no
event N.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .days import SOLUTION, module_since

module_since(7, "sessions")

ROUND_ONE = "run the tests and tell me which case fails"
IDS = ("s-20261129-103359-5aa3", "s-20261129-103359-5ab3", "s-20261130-090000-e881")


def mca(root: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCA_") and k not in ("MOCK", "PYTHONPATH")}
    env.update(MOCK="1", PYTHONPATH=str(SOLUTION), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-m", "mca", *args], cwd=root, env=env, input=stdin,
                          capture_output=True, text=True, timeout=60, start_new_session=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory) -> bytes:
    """The bytes of a real two-round log (19 events, fork points 2, 8, 9, 19)."""
    root = tmp_path_factory.mktemp("rounds")
    shutil.copytree(SOLUTION / "workspace", root / "workspace", ignore=shutil.ignore_patterns("__pycache__"))
    assert mca(root, "--yes", ROUND_ONE).returncode == 0
    assert mca(root, "--yes", "--resume", "fix it").returncode == 0
    (log,) = (root / ".sessions").glob("s-*.jsonl")
    data = log.read_bytes()
    assert data.count(b"\n") == 19
    return data


@pytest.fixture
def project(tmp_path: Path, two_rounds: bytes) -> Path:
    """A scratch project holding the same log under three chosen ids."""
    shutil.copytree(SOLUTION / "workspace", tmp_path / "workspace", ignore=shutil.ignore_patterns("__pycache__"))
    sessions = tmp_path / ".sessions"
    sessions.mkdir()
    for session_id in IDS:
        (sessions / f"{session_id}.jsonl").write_bytes(two_rounds)
    return tmp_path


def snapshot(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / ".sessions").iterdir())}


# --- which session --resume ARG names -------------------------------------------------

@pytest.mark.parametrize("piece, meant", [
    ("5aa3", IDS[0]),                      # the 4 random hex digits
    ("103359-5ab3", IDS[1]),               # a longer suffix
    ("s-20261130", IDS[2]),                # a unique prefix
    (IDS[1], IDS[1]),                      # the whole id
])
def test_a_piece_of_one_id_resumes_that_session(project, piece, meant):
    before = snapshot(project)
    done = mca(project, "--resume", piece, stdin="/exit\n")
    assert done.returncode == 0, done.stderr
    assert f"resumed {meant}: 11 messages restored" in done.stderr
    assert snapshot(project) == before  # opened and left: nothing written, nothing created


@pytest.mark.parametrize("args, named, listed", [
    (("--resume", "5aa4"), "5aa4", [IDS[0]]),                              # a typo: the close match is named
    (("--resume", "5aa4", "fix", "it"), "5aa4", [IDS[0]]),                 # also with a prompt after it
    (("--resume", "s-20261129", "hi"), "s-20261129", [IDS[0], IDS[1]]),    # several: both listed
    (("--resume", "s-2026112"), "s-2026112", [IDS[0], IDS[1]]),
])
def test_a_piece_that_names_no_session_or_several_is_refused_with_exit_2(project, args, named, listed):
    before = snapshot(project)
    done = mca(project, *args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""  # no turn ran: the model was never asked
    assert named in done.stderr and all(session_id in done.stderr for session_id in listed), done.stderr
    assert "python -m mca --resume -- " in done.stderr  # how to send it as a prompt instead
    assert snapshot(project) == before


def test_a_refused_piece_creates_no_sessions_dir(tmp_path):
    done = mca(tmp_path, "--sessions-dir", "store", "--resume", "5aa3")
    assert done.returncode == 2 and "there are no sessions there" in done.stderr, done.stderr
    assert "To start a session with '5aa3' as the prompt: python -m mca -- 5aa3" in done.stderr
    assert not (tmp_path / "store").exists()


def test_an_unknown_whole_id_still_exits_1_and_lists_close_matches(project):
    before = snapshot(project)
    done = mca(project, "--resume", "s-20261129-103359-5aa4", "hi")
    assert done.returncode == 1
    assert "no session s-20261129-103359-5aa4 in .sessions" in done.stderr and IDS[0] in done.stderr
    assert snapshot(project) == before


def test_after_a_double_dash_a_word_that_looks_like_an_id_is_a_prompt(project):
    done = mca(project, "--resume", "--", "5aa3")
    assert done.returncode == 0, done.stderr
    assert f"resumed {IDS[2]}" in done.stderr  # the latest by name
    latest = [json.loads(line) for line in (project / ".sessions" / f"{IDS[2]}.jsonl").read_text().splitlines()]
    assert latest[19] == {**latest[19], "seq": 20, "type": "message", "message": {"role": "user", "content": "5aa3"}}


def test_a_prompt_with_spaces_still_goes_to_the_latest_session(project):
    done = mca(project, "--resume", "5aa3 is my prompt")
    assert done.returncode == 0, done.stderr
    assert f"resumed {IDS[2]}" in done.stderr


def test_the_help_says_how_a_prompt_follows_resume(project):
    text = " ".join(mca(project, "--help").stdout.split())
    assert '--resume ID "fix it"' in text and "--resume -- 5aa3" in text and "4 hex digits" in text


# --- recovery screens ------------------------------------------------------------------

def _status_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line.strip() for line in done.stderr.splitlines() if line.strip()]


def test_damage_at_line_12_says_why_and_how_much_was_left_unread_before_the_new_id(project):
    path = project / ".sessions" / f"{IDS[0]}.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[11] = b"{oops"
    path.write_bytes(b"\n".join(lines))
    damaged = path.read_bytes()
    done = mca(project, "--resume", "5aa3", "--yes", "hi")
    assert done.returncode == 0, done.stderr
    status = _status_lines(done)
    stopped = status.index("log stopped at line 12: not valid JSON; the 7 lines after it were not read")
    forked = next(i for i, line in enumerate(status) if line.startswith("continuing in recovery fork "))
    new_id = status[forked].split()[4]
    resumed = status.index(f"resumed {new_id}: 6 messages restored")
    assert stopped < forked < resumed, status
    assert not any(line.startswith("resumed") for line in status[:stopped]), status
    assert path.read_bytes() == damaged

    inspected = mca(project, "log", "inspect", IDS[0])
    assert "log: stopped at line 12: not valid JSON; the 7 lines after it were not read" in inspected.stdout
    report = json.loads(mca(project, "log", "inspect", IDS[0], "--json").stdout)
    assert report["stopped_at"] == 12 and report["notes"] == [
        "log stopped at line 12: not valid JSON; the 7 lines after it were not read"]


def test_a_torn_tail_is_explained_before_the_new_id_and_has_nothing_unread(project):
    path = project / ".sessions" / f"{IDS[0]}.jsonl"
    os.truncate(path, path.stat().st_size - 30)
    done = mca(project, "--resume", "5aa3", stdin="/exit\n")
    assert done.returncode == 0, done.stderr
    status = _status_lines(done)
    assert "log stopped at line 19: last line incomplete" in status, status
    first_resumed = next(i for i, line in enumerate(status) if line.startswith("resumed "))
    assert status.index("log stopped at line 19: last line incomplete") < first_resumed
    assert "not read" not in done.stderr


def test_fork_at_an_event_that_is_not_there_says_where_the_log_ends(project):
    before = snapshot(project)
    done = mca(project, "fork", IDS[0], "99")
    assert done.returncode == 1 and done.stdout == ""
    assert "no event 99: the log ends at seq 19; fork points: 2, 8, 9, 19" in done.stderr, done.stderr
    assert "not a clean boundary" not in done.stderr
    assert "not a clean boundary" in mca(project, "fork", IDS[0], "4").stderr  # a real event, not a fork point
    assert snapshot(project) == before


def test_repl_fork_99_says_there_is_no_event_99(project):
    done = mca(project, "--resume", "5aa3", stdin="/fork 99\n/fork 0\n/exit\n")
    assert done.returncode == 0, done.stderr
    assert f"cannot fork {IDS[0]}: no event 99: the log ends at seq 19" in done.stdout, done.stdout
    assert "no event 0: events are numbered from 1 to 19" in done.stdout
    assert "not a clean boundary" not in done.stdout


def test_fork_past_a_damaged_line_says_where_reading_stops(project):
    path = project / ".sessions" / f"{IDS[0]}.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[11] = b"{oops"
    path.write_bytes(b"\n".join(lines))
    done = mca(project, "fork", IDS[0], "15")
    assert done.returncode == 1
    assert "no event 15 can be read: the log stops at line 12 (not valid JSON), after seq 11" in done.stderr
