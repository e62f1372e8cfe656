from __future__ import annotations

import hashlib

import pytest

from mca.session.fork import ForkError, fork, fork_points
from mca.session.ids import session_path
from mca.session.log import Event, SessionLog, read_events
from mca.session.replay import estimate_tokens, replay

from .conftest import ANSWER, CALL, RESULT, SYSTEM, USER, write_round_one


def test_replay_rebuilds_messages_only(round_one):
    result = replay(read_events(round_one).events)
    assert (result.replayed, result.skipped) == (5, 3)
    assert result.messages == [SYSTEM, USER, CALL, RESULT, ANSWER]
    assert estimate_tokens(result.messages) > 0


def test_replay_skips_unknown_types_and_fork_events():
    events = [Event(1, "t", "message", {"message": USER}), Event(2, "t", "fork", {"from": "x", "atSeq": 1}),
              Event(3, "t", "future_thing", {})]
    result = replay(events)
    assert (result.messages, result.replayed, result.skipped) == ([USER], 1, 2)


def two_rounds(sessions):
    with SessionLog.create(sessions) as log:
        write_round_one(log)
        log.append("message", message={"role": "user", "content": "fix it"})
        for n in (2, 3):
            log.append("usage", input_tokens=1, output_tokens=1)
            log.append("message", message={"role": "assistant", "content": "", "tool_calls": [{"id": f"call_{n}", "name": "x", "args": {}}]})
            log.append("tool_end", id=f"call_{n}", name="x", ok=True, ms=1, chars=1, truncated=False, blocked_by=None)
            log.append("message", message={"role": "tool", "content": "ok", "tool_call_id": f"call_{n}"})
        log.append("usage", input_tokens=1, output_tokens=1)
        log.append("message", message={"role": "assistant", "content": "All 4 tests pass."})
    return log.path


def test_fork_points_are_user_and_plain_assistant_messages(sessions):
    path = two_rounds(sessions)
    events = read_events(path).events
    assert len(events) == 19
    assert fork_points(events) == [2, 8, 9, 19]


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_size


def test_fork_copies_the_prefix_byte_for_byte_and_leaves_the_parent(sessions):
    parent = two_rounds(sessions)
    before = digest(parent)
    child_id = fork(sessions, parent.stem, 8)
    child = session_path(sessions, child_id)
    assert child_id != parent.stem
    parent_lines = parent.read_bytes().splitlines(keepends=True)
    child_lines = child.read_bytes().splitlines(keepends=True)
    assert child_lines[:8] == parent_lines[:8]
    assert len(child_lines) == 9
    last = read_events(child).events[-1]
    assert (last.seq, last.type, last.fields) == (9, "fork", {"from": parent.stem, "atSeq": 8})
    assert digest(parent) == before


def test_a_fork_of_a_fork_keeps_the_lineage(sessions):
    parent = two_rounds(sessions)
    child = fork(sessions, parent.stem, 8)
    grandchild = fork(sessions, child, 8)
    events = read_events(session_path(sessions, grandchild)).events
    assert [e.seq for e in events] == list(range(1, 10)) and events[-1].fields["from"] == child


@pytest.mark.parametrize("at", [1, 3, 4, 5, 6, 7, 20, 0, -1])
def test_fork_at_an_unclean_point_is_refused_and_names_the_valid_ones(sessions, at):
    parent = two_rounds(sessions)
    before = digest(parent)
    with pytest.raises(ForkError, match="fork points: 2, 8, 9, 19"):
        fork(sessions, parent.stem, at)
    assert digest(parent) == before
    assert len(list(sessions.glob("*.jsonl"))) == 1


def test_fork_of_an_unknown_session_is_refused(sessions):
    sessions.mkdir()
    with pytest.raises(ForkError, match="no session"):
        fork(sessions, "s-20260907-100000-abcd", 2)


def test_fork_of_a_damaged_log_stops_before_the_damage(sessions):
    parent = two_rounds(sessions)
    lines = parent.read_bytes().splitlines(keepends=True)
    lines[4] = b"{oops\n"
    parent.write_bytes(b"".join(lines))
    assert fork(sessions, parent.stem, 2)
    with pytest.raises(ForkError, match="fork points: 2$"):
        fork(sessions, parent.stem, 8)
