"""Tests of the reference session package, imported in process from the solution."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / "day-07-session-resume"
if str(SOLUTION) not in sys.path:
    sys.path.insert(0, str(SOLUTION))

from mca.session.log import SessionLog  # noqa: E402

SYSTEM = {"role": "system", "content": "You are mca."}
USER = {"role": "user", "content": "run the tests and tell me which case fails"}
CALL = {
    "role": "assistant",
    "content": "Running the tests.",
    "tool_calls": [{"id": "call_1", "name": "run_command", "args": {"command": "python -m unittest -v"}}],
}
RESULT = {"role": "tool", "content": "exit status 1 (12 ms)\ntest_divide_by_zero ... FAIL", "tool_call_id": "call_1"}
ANSWER = {"role": "assistant", "content": "The failing case is test_divide_by_zero."}


def write_round_one(log: SessionLog) -> None:
    """The 8 events of the contract's round 1."""
    log.append("message", message=SYSTEM)
    log.append("message", message=USER)
    log.append("usage", input_tokens=30, output_tokens=12)
    log.append("message", message=CALL)
    log.append("tool_end", id="call_1", name="run_command", ok=False, ms=12, chars=48, truncated=False, blocked_by=None)
    log.append("message", message=RESULT)
    log.append("usage", input_tokens=60, output_tokens=10)
    log.append("message", message=ANSWER)


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


@pytest.fixture
def round_one(sessions: Path) -> Path:
    """A closed session log holding round 1; returns its path."""
    with SessionLog.create(sessions) as log:
        write_round_one(log)
    return log.path
