from __future__ import annotations

import hashlib
import os

import pytest

from mca.session.ids import session_path
from mca.session.log import SessionLog, read_events
from mca.session.resume import ResumeError, latest_session_id, list_sessions, resume

from .conftest import ANSWER, CALL, SYSTEM, USER, write_round_one


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
        assert resumed.messages == [SYSTEM, USER]  # the last fork point before the damage is seq 2
        resumed.log.append("message", message={"role": "user", "content": "again"})
    assert digest(round_one) == before
    child = read_events(session_path(sessions, resumed.session_id)).events
    assert [e.type for e in child] == ["message", "message", "fork", "message"]
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
