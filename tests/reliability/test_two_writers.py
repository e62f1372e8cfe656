"""4. Two writers: a live session is refused to a second process, a lock left by a killed
process does not block, and lines from another source are caught by the reader."""

from __future__ import annotations

import signal

import pytest

from mca.session.log import SessionLocked, SessionLog, read_events
from mca.session.resume import ResumeError, resume
from tests.session.conftest import write_round_one

from .helpers import digest
from .procs import read_line, writer

ROUNDS = 10


@pytest.fixture
def session(tmp_path):
    with SessionLog.create(tmp_path / "sessions") as log:
        write_round_one(log)
    return log.path


def test_a_live_session_is_refused_to_a_second_process(session, figures):
    sessions = session.parent
    tried = held = 0
    with writer("hold", sessions, session.stem) as holder:
        assert read_line(holder, bytearray()) == f"ready {session.stem}"
        before = digest(session)
        tried += 1  # in this process, through resume()
        with pytest.raises(ResumeError, match=f"session {session.stem} is open in another process"):
            resume(sessions, session.stem)
        held += 1
        tried += 1  # through SessionLog.open_append directly
        with pytest.raises(SessionLocked, match="open in another process; finish that one first"):
            SessionLog.open_append(session, 8)
        held += 1
        tried += 1  # from a third process
        with writer("resume", sessions, session.stem) as other:
            line = read_line(other, bytearray())
            other.wait()
        assert line.startswith(f"refused session {session.stem} is open in another process"), line
        assert other.returncode == 1
        held += 1
        assert digest(session) == before and [p.name for p in sessions.iterdir()] == [session.name]
    figures.record("two writers: second opener refused", tried, held, "resume() in process, open_append, another process")


def test_two_processes_racing_for_one_session_one_wins(session, figures):
    sessions = session.parent
    held = 0
    try:
        for _ in range(ROUNDS):
            with writer("hold", sessions, session.stem) as a, writer("hold", sessions, session.stem) as b:
                lines = sorted([read_line(a, bytearray()), read_line(b, bytearray())])
                assert lines[0] == f"ready {session.stem}", lines
                assert lines[1].startswith("refused") and "open in another process" in lines[1], lines
            held += 1
        assert [e.seq for e in read_events(session).events] == list(range(1, 9))
    finally:
        figures.record("two writers: racing processes, exactly one wins", ROUNDS, held)


def test_a_lock_left_by_a_killed_process_does_not_block(session, figures):
    sessions = session.parent
    held = 0
    try:
        for n in range(ROUNDS):
            with writer("hold", sessions, session.stem) as holder:
                assert read_line(holder, bytearray()).startswith("ready")
                holder.send_signal(signal.SIGKILL)
                holder.wait()
            # LOCK_NB: this either succeeds at once or raises; it never waits.
            with SessionLog.open_append(session, 8 + n) as log:
                log.append("usage", input_tokens=n, output_tokens=n)
            held += 1
        assert [e.seq for e in read_events(session).events] == list(range(1, 9 + ROUNDS))
    finally:
        figures.record("two writers: lock of a SIGKILLed holder is free at once", ROUNDS, held)


def test_a_live_session_in_the_middle_of_a_tool_round_is_refused(session, figures):
    sessions = session.parent
    with writer("hold", sessions, session.stem, "--mid-tool") as holder:
        assert read_line(holder, bytearray()) == f"ready {session.stem}"
        with writer("resume", sessions, session.stem) as other:
            line = read_line(other, bytearray())
            other.wait()
    assert line.startswith("refused") and "open in another process" in line, line
    figures.record("two writers: a live session mid tool round is refused, not forked", 1, 1, "regression test")


def test_lines_from_another_source_are_caught(tmp_path, figures):
    """Duplicate or out-of-order seqs (a spliced file, or two writers that ignored the lock)."""
    logs = []
    for name in ("a", "b"):
        with SessionLog.create(tmp_path / name) as log:
            write_round_one(log)
        logs.append(log.path.read_bytes().splitlines(keepends=True))
    a, b = logs
    cases = {
        "b appended after a": (a + b, 9, "seq 1 goes back (the line before has 8)"),
        "a and b interleaved": ([x for pair in zip(a, b) for x in pair], 2, "seq 1 repeats the line before"),
        "last event written twice": (a + a[-1:], 9, "seq 8 repeats the line before"),
        "b's tail after a's head": (a[:5] + b[3:], 6, "seq 4 goes back (the line before has 5)"),
    }
    held = 0
    try:
        for name, (lines, line, reason) in cases.items():
            path = tmp_path / "spliced" / f"{name}.jsonl"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(b"".join(lines))
            result = read_events(path)
            assert (result.stopped_at, result.reason) == (line, reason), name
            assert [e.seq for e in result.events] == list(range(1, line)), name
            held += 1
    finally:
        figures.record("two writers: spliced seqs caught by the reader", len(cases), held)
