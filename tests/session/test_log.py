from __future__ import annotations

import json
import os

import pytest
from freezegun import freeze_time

from mca.session.log import (
    LogDamaged,
    SessionError,
    SessionLocked,
    SessionLog,
    read_events,
)

from .conftest import write_round_one


def test_append_writes_one_complete_line_per_call(sessions):
    with freeze_time("2026-09-07 10:00:00.250"):
        with SessionLog.create(sessions) as log:
            sizes = [log.path.stat().st_size]
            for n in range(3):
                event = log.append("usage", input_tokens=n, output_tokens=n)
                sizes.append(log.path.stat().st_size)
                assert event.seq == n + 1
                lines = log.path.read_bytes().splitlines(keepends=True)
                assert len(lines) == n + 1 and lines[-1].endswith(b"\n")
    first = json.loads(lines[0])
    assert first == {"seq": 1, "ts": "2026-09-07T10:00:00.250Z", "type": "usage", "input_tokens": 0, "output_tokens": 0}
    assert sizes == sorted(set(sizes))


def test_append_never_rewrites_earlier_bytes(sessions, monkeypatch):
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, flags, *a: opened.append(flags) or real_open(path, flags, *a))
    with SessionLog.create(sessions) as log:
        write_round_one(log)
        before = log.path.read_bytes()
        inode = log.path.stat().st_ino
        log.append("error", message="boom", where="gateway")
        after = log.path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    assert log.path.stat().st_ino == inode
    assert opened and all(flags & os.O_APPEND and not flags & os.O_TRUNC for flags in opened)


def test_continuing_a_log_carries_on_the_seq(round_one):
    with SessionLog.open_append(round_one, last_seq=8) as log:
        assert log.append("usage", input_tokens=1, output_tokens=1).seq == 9
    assert [e.seq for e in read_events(round_one).events] == list(range(1, 10))


def test_a_second_writer_is_refused_while_the_first_is_open(round_one):
    with SessionLog.open_append(round_one, last_seq=8):
        with pytest.raises(SessionLocked, match="open in another process"):
            SessionLog.open_append(round_one, last_seq=8)
    SessionLog.open_append(round_one, last_seq=8).close()  # free again once closed


def test_new_events_never_follow_a_torn_line(round_one):
    os.truncate(round_one, round_one.stat().st_size - 30)
    before = round_one.read_bytes()
    with pytest.raises(LogDamaged, match="incomplete line"):
        SessionLog.open_append(round_one, last_seq=7)
    assert round_one.read_bytes() == before


def test_a_log_that_changed_since_it_was_read_is_refused(round_one):
    with pytest.raises(LogDamaged, match="changed"):
        SessionLog.open_append(round_one, last_seq=8, expected_size=10)


def test_sessions_dir_that_is_a_file_gets_a_clear_message(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(SessionError, match="is a file"):
        SessionLog.create(target)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_sessions_dir_gets_a_clear_message(tmp_path):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(SessionError, match="cannot write"):
            SessionLog.create(tmp_path)
    finally:
        tmp_path.chmod(0o700)


def test_fsync_option_syncs_every_append(sessions, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    monkeypatch.setenv("MCA_FSYNC", "1")
    with SessionLog.create(sessions) as log:
        created = len(synced)
        log.append("usage", input_tokens=1, output_tokens=1)
        log.append("usage", input_tokens=1, output_tokens=1)
    assert created == 2  # the new sessions dir's parent and the sessions dir: both new names must survive
    assert len(synced) == 4
