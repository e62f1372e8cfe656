from __future__ import annotations

import hashlib
import os

import pytest

from mca.session.ids import session_path
from mca.session.log import SessionLog, read_events
from mca.session.fork import ForkError, fork, fork_points, round_ends
from mca.session.resume import ResumeError, latest_session_id, list_sessions, recovery_point, resume

from .conftest import ANSWER, CALL, RESULT, SYSTEM, USER, write_round_one


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_resume_latest_continues_the_same_file(sessions, round_one):
    older = SessionLog.create(sessions)
    older.close()
    os.utime(older.path, (0, 0))  # an old mtime must not matter: names decide
    latest = max(round_one.stem, older.path.stem)
    assert latest_session_id(sessions) == latest
    resumed = resume(sessions)
    with resumed.log:
        assert resumed.session_id == latest and resumed.forked_from is None


def test_resume_by_id_replays_the_history(sessions, round_one):
    resumed = resume(sessions, round_one.stem)
    with resumed.log:
        assert (resumed.replayed, resumed.skipped, resumed.notes) == (5, 3, [])
        assert resumed.messages[-1] == ANSWER
        assert resumed.log.append("message", message=USER).seq == 9


@pytest.mark.parametrize("bad", ["s-20990101-000000-abcd", "../etc/passwd", "/tmp/x", ""])
def test_resume_of_an_unknown_or_invalid_id_creates_nothing(sessions, round_one, bad):
    before = sorted(sessions.iterdir())
    with pytest.raises(ResumeError) as info:
        resume(sessions, bad)
    assert sorted(sessions.iterdir()) == before
    assert bad == "" or bad in str(info.value)


def test_resume_in_an_empty_dir_says_so(tmp_path):
    with pytest.raises(ResumeError, match="no session to resume"):
        resume(tmp_path / "nothing-here")


def test_a_torn_log_continues_in_a_recovery_fork_and_stays_unchanged(sessions, round_one):
    os.truncate(round_one, round_one.stat().st_size - 30)
    before = digest(round_one)
    resumed = resume(sessions, round_one.stem)
    with resumed.log:
        assert resumed.notes[0] == "log stopped at line 8: last line incomplete"
        assert resumed.forked_from == round_one.stem and resumed.session_id != round_one.stem
        # the finished tool round (lines 3-6, intact) is kept: the fork starts at its end, seq 6
        assert resumed.messages == [SYSTEM, USER, CALL, RESULT]
        assert resumed.notes[1] == (f"continuing in recovery fork {resumed.session_id} from seq 6 (the end of a "
                                    f"finished tool round, its results kept); {round_one.stem}.jsonl is left as it was")
        resumed.log.append("message", message={"role": "user", "content": "again"})
    assert digest(round_one) == before
    child_path = session_path(sessions, resumed.session_id)
    child = read_events(child_path).events
    assert [e.type for e in child] == ["message", "message", "usage", "message", "tool_end", "message", "fork",
                                       "message"]
    assert child[6].fields == {"from": round_one.stem, "atSeq": 6} and child[6].seq == 7
    parent_lines = round_one.read_bytes().splitlines(keepends=True)
    assert child_path.read_bytes().splitlines(keepends=True)[:6] == parent_lines[:6]
    again = resume(sessions)  # the fork is now the latest, and keeps the new event
    with again.log:
        assert again.session_id == resumed.session_id and again.messages[-1]["content"] == "again"


def test_a_log_that_ends_mid_tool_round_never_replays_a_dangling_call(sessions):
    with SessionLog.create(sessions) as log:
        log.append("message", message=SYSTEM)
        log.append("message", message=USER)
        log.append("usage", input_tokens=1, output_tokens=1)
        log.append("message", message=CALL)
    resumed = resume(sessions)
    with resumed.log:
        assert resumed.forked_from == log.path.stem
        assert all(not m.get("tool_calls") for m in resumed.messages)


def test_a_log_that_ends_after_a_finished_tool_round_keeps_it(sessions):
    """Killed after the tool's result was logged, before the model answered: the round is
    complete, so the recovery fork keeps it and the test run is not asked for again."""
    with SessionLog.create(sessions) as log:
        write_round_one(log)
    lines = log.path.read_bytes().splitlines(keepends=True)
    log.path.write_bytes(b"".join(lines[:6]))
    resumed = resume(sessions, log.path.stem)
    with resumed.log:
        assert resumed.forked_from == log.path.stem
        assert resumed.messages == [SYSTEM, USER, CALL, RESULT]
        assert resumed.notes[0] == "the log ends after a tool round the model has not answered yet (seq 6)"
        assert "from seq 6 (the end of a finished tool round, its results kept)" in resumed.notes[1]


def test_a_round_whose_tool_end_is_missing_is_not_kept(sessions):
    """A result is not a finished round without its tool_end: the fork goes back to seq 2."""
    with SessionLog.create(sessions) as log:
        log.append("message", message=SYSTEM)
        log.append("message", message=USER)
        log.append("message", message=CALL)
        log.append("message", message=RESULT)
    events = read_events(log.path).events
    assert round_ends(events) == [] and recovery_point(events) == (2, False)
    resumed = resume(sessions, log.path.stem)
    with resumed.log:
        assert resumed.messages == [SYSTEM, USER]
        assert "from seq 2 (the last clean point)" in resumed.notes[-1]


def test_round_ends_need_every_call_answered(sessions):
    two = {"role": "assistant", "content": "", "tool_calls": [{"id": "a", "name": "read_file", "args": {}},
                                                               {"id": "b", "name": "read_file", "args": {}}]}
    with SessionLog.create(sessions) as log:
        log.append("message", message=SYSTEM)
        log.append("message", message=USER)
        log.append("message", message=two)
        log.append("tool_end", id="a", name="read_file", ok=True, ms=1, chars=1, truncated=False, blocked_by=None)
        log.append("message", message={"role": "tool", "tool_call_id": "a", "content": "1"})
        log.append("tool_end", id="b", name="read_file", ok=True, ms=1, chars=1, truncated=False, blocked_by=None)
        log.append("message", message={"role": "tool", "tool_call_id": "b", "content": "2"})
    events = read_events(log.path).events
    assert round_ends(events) == [7]
    assert round_ends(events[:5]) == [] and recovery_point(events[:5]) == (2, False)  # call b has no result


def test_a_round_end_is_never_offered_to_people(sessions, round_one):
    """/fork and `fork ID N` keep to the clean boundaries: seq 6 ends a round but is refused."""
    events = read_events(round_one).events
    assert fork_points(events) == [2, 8] and round_ends(events) == [6]
    before = digest(round_one)
    with pytest.raises(ForkError, match="seq 6 is not a fork point"):
        fork(sessions, round_one.stem, 6)
    assert digest(round_one) == before and sorted(p.name for p in sessions.iterdir()) == [round_one.name]


def test_a_session_still_open_elsewhere_is_refused(sessions, round_one):
    holder = SessionLog.open_append(round_one, 8)
    try:
        with pytest.raises(ResumeError, match="open in another process"):
            resume(sessions, round_one.stem)
    finally:
        holder.close()


def test_list_sessions_newest_first_with_damaged_ones_marked(sessions, round_one):
    with SessionLog.create(sessions) as log:
        write_round_one(log)
    os.truncate(log.path, log.path.stat().st_size - 5)
    listed = list_sessions(sessions)
    assert [i.session_id for i in listed] == sorted([round_one.stem, log.path.stem], reverse=True)
    by_id = {i.session_id: i for i in listed}
    assert (by_id[round_one.stem].messages, by_id[round_one.stem].damaged) == (5, False)
    assert (by_id[log.path.stem].events, by_id[log.path.stem].damaged) == (7, True)
