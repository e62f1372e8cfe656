"""6. Durability: with ``MCA_FSYNC=1`` every append fsyncs the log and every new file's
directory is fsynced; without it nothing is. ``os.fsync`` is wrapped in process to see
which descriptor (a file or a directory, and which one) each call was for."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from mca.session.fork import fork
from mca.session.ids import session_path
from mca.session.log import LogDamaged, SessionLog
from mca.session.resume import resume
from tests.session.conftest import write_round_one


@pytest.fixture
def fsyncs(monkeypatch):
    calls: list[tuple[str, Path]] = []
    real = os.fsync

    def spy(fd):
        kind = "dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        calls.append((kind, Path(os.readlink(f"/proc/self/fd/{fd}"))))
        return real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return calls


def run_everything(tmp_path: Path, calls: list) -> dict:
    """Create + 8 appends, fork at 8, resume a torn log (recovery fork) + 1 append; return the calls per step."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    steps = {}
    with SessionLog.create(sessions) as log:
        steps["create"] = list(calls)
        write_round_one(log)
        steps["appends"] = calls[len(steps["create"]):]
    mark = len(calls)
    child = fork(sessions, log.path.stem, 8)
    steps["fork"] = calls[mark:]
    os.truncate(log.path, log.path.stat().st_size - 5)
    mark = len(calls)
    resumed = resume(sessions, log.path.stem)
    with resumed.log:
        resumed.log.append("message", message={"role": "user", "content": "again"})
    steps["recovery"] = calls[mark:]
    return {"steps": steps, "sessions": sessions, "log": log.path, "child": session_path(sessions, child),
            "recovery": session_path(sessions, resumed.session_id)}


def test_with_mca_fsync_every_append_and_every_new_name_is_synced(tmp_path, monkeypatch, fsyncs, figures):
    monkeypatch.setenv("MCA_FSYNC", "1")
    got = run_everything(tmp_path, fsyncs)
    steps, sessions = got["steps"], got["sessions"]
    checks = {
        "create syncs the sessions dir": steps["create"] == [("dir", sessions)],
        "each of 8 appends syncs the log": steps["appends"] == [("file", got["log"])] * 8,
        "fork syncs the copy, the dir, then the fork event": steps["fork"] == [
            ("file", got["child"]), ("dir", sessions), ("file", got["child"])],
        "recovery fork + append: copy, dir, fork event, append": steps["recovery"] == [
            ("file", got["recovery"]), ("dir", sessions), ("file", got["recovery"]), ("file", got["recovery"])],
    }
    figures.record("durability: MCA_FSYNC=1 syncs file and directory", len(checks), sum(checks.values()),
                   f"{len(fsyncs)} fsync calls for create, 8 appends, a fork, a recovery fork and 1 append")
    assert all(checks.values()), {k: v for k, v in checks.items() if not v} | {"calls": fsyncs}


@pytest.mark.parametrize("value", [None, "", "0"])
def test_without_mca_fsync_nothing_is_synced(tmp_path, monkeypatch, fsyncs, figures, value):
    if value is None:
        monkeypatch.delenv("MCA_FSYNC", raising=False)
    else:
        monkeypatch.setenv("MCA_FSYNC", value)
    run_everything(tmp_path, fsyncs)
    figures.record("durability: MCA_FSYNC unset / empty / 0 syncs nothing", 1, int(fsyncs == []))
    assert fsyncs == []


def test_with_mca_fsync_a_new_sessions_dir_is_made_durable_too(tmp_path, monkeypatch, fsyncs, figures):
    monkeypatch.setenv("MCA_FSYNC", "1")
    SessionLog.create(tmp_path / "new").close()
    assert ("dir", tmp_path) in fsyncs
    figures.record("durability: MCA_FSYNC=1 syncs the parent of a new sessions dir", 1, 1, "regression test")


def test_after_a_partial_write_fails_no_later_append_is_glued_to_it(tmp_path, monkeypatch, figures):
    log = SessionLog.create(tmp_path / "sessions")
    try:
        write_round_one(log)
        real_write = os.write
        state = {"calls": 0}

        def disk_fills_up(fd, data):
            state["calls"] += 1
            if state["calls"] == 1:
                return real_write(fd, bytes(data)[:10])  # the kernel takes part of the line ...
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # ... then the disk is full

        monkeypatch.setattr(os, "write", disk_fills_up)
        with pytest.raises(LogDamaged, match="No space left"):
            log.append("usage", input_tokens=1, output_tokens=1)
        monkeypatch.setattr(os, "write", real_write)  # space is freed again
        with pytest.raises(LogDamaged, match="recovery fork"):  # never glued to the torn bytes
            log.append("message", message={"role": "user", "content": "still here?"})
    finally:
        log.close()
    figures.record("durability: no append is glued to a failed partial write", 1, 1, "regression test")
