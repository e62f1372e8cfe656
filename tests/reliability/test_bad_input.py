"""5. Bad input: ids that are paths, odd sessions dirs, huge or tiny logs, stray files."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mca.session.fork import fork
from mca.session.ids import InvalidSessionId, check_session_id, session_path
from mca.session.log import SessionError, SessionLog, read_events
from mca.session.replay import replay
from mca.session.resume import ResumeError, latest_session_id, list_sessions, resume
from tests.session.conftest import SOLUTION, SYSTEM, write_round_one

BAD_IDS = ["../x", "../../etc/passwd", "/tmp/x", "", ".", "..", "s-20260907-100000-abcd/../../x",
           "s-20260907-100000-ABCD", "s-20260907-100000-abc", "s-2026-09-07", "x.jsonl",
           "s-20260907-100000-abcd.jsonl", "s-20260907-100000-abcd\x00", "s-20260907-100000-abcd\n",
           "\x00", " s-20260907-100000-abcd"]


def tree(root: Path) -> list[tuple[str, int]]:
    return sorted((str(p.relative_to(root)), p.stat().st_size if p.is_file() else -1) for p in root.rglob("*"))


def entry_points(sessions: Path, bad: str):
    """Every API that takes an id (or a path named by one) -> callable."""
    return {
        "resume": lambda: resume(sessions, bad),
        "create": lambda: SessionLog.create(sessions, bad),
        "fork": lambda: fork(sessions, bad, 2),
        "session_path": lambda: session_path(sessions, bad),
    }


def test_ids_that_are_paths_are_refused_before_any_file_is_touched(tmp_path, figures):
    sessions = tmp_path / "sessions"
    with SessionLog.create(sessions) as log:
        write_round_one(log)
    before = tree(tmp_path)
    outside = [Path("/tmp/x.jsonl"), Path("/tmp/x"), Path("/etc/passwd.jsonl")]
    existed = [p.exists() for p in outside]
    tried = held = 0
    failures = []
    for bad in BAD_IDS:
        for name, call in entry_points(sessions, bad).items():
            tried += 1
            try:
                with pytest.raises((InvalidSessionId, ResumeError)) as info:
                    call()
                assert "is not a session id" in str(info.value), str(info.value)
                assert tree(tmp_path) == before, "files changed"
                assert [p.exists() for p in outside] == existed, "something was created outside"
                held += 1
            except (AssertionError, pytest.fail.Exception) as exc:
                failures.append((name, bad, str(exc)))
    figures.record("bad input: ids that are paths or malformed", tried, held,
                   f"{len(BAD_IDS)} ids x resume, create, fork, session_path")
    assert not failures, failures[:5]


def test_a_refused_id_creates_no_sessions_dir(tmp_path, figures):
    with pytest.raises(InvalidSessionId):
        SessionLog.create(tmp_path / "new", "../x")
    assert not (tmp_path / "new").exists()
    figures.record("bad input: a refused id creates no sessions dir", 1, 1, "regression test")


def test_create_with_an_empty_id_is_refused(tmp_path, figures):
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    try:
        with pytest.raises(InvalidSessionId):
            SessionLog.create(sessions, "").close()
    finally:
        assert list(sessions.iterdir()) == [], "a session was created"
    figures.record("bad input: create with an empty id is refused", 1, 1, "regression test")


@pytest.mark.parametrize("bad", ["s-٢٠٢٦٠٩٠٧-١٠٠٠٠٠-abcd", "s-２０２６０９０７-１０００００-abcd"])
def test_ids_with_non_ascii_digits_are_refused(bad, figures):
    with pytest.raises(InvalidSessionId):
        check_session_id(bad)
    figures.record("bad input: ids with non-ASCII digits are refused", 1, 1, "regression test")


def test_a_sessions_dir_that_does_not_exist(tmp_path, figures):
    missing = tmp_path / "not" / "there"
    held = 0
    try:
        with pytest.raises(ResumeError, match=f"no session to resume in {missing}"):
            resume(missing)
        held += 1
        with pytest.raises(ResumeError, match=f"no session s-20260907-100000-abcd in {missing}"):
            resume(missing, "s-20260907-100000-abcd")
        assert not (tmp_path / "not").exists()
        held += 1
        assert list_sessions(missing) == [] and latest_session_id(missing) is None
        held += 1
        with SessionLog.create(missing) as log:  # create makes it, parents too
            log.append("message", message=SYSTEM)
        assert [p.name for p in missing.iterdir()] == [log.path.name]
        held += 1
    finally:
        figures.record("bad input: sessions dir missing (resume: message; create: makes it)", 4, held)


def test_a_sessions_dir_that_is_a_file(tmp_path, figures):
    target = tmp_path / "file"
    target.write_text("not a directory")
    held = 0
    try:
        with pytest.raises(SessionError, match=f"sessions dir {target} is a file"):
            SessionLog.create(target)
        held += 1
        with pytest.raises(ResumeError, match="no session to resume"):
            resume(target)
        with pytest.raises(ResumeError, match="no session s-20260907-100000-abcd"):
            resume(target, "s-20260907-100000-abcd")
        held += 1
        assert list_sessions(target) == [] and target.read_text() == "not a directory"
        held += 1
    finally:
        figures.record("bad input: sessions dir is a file", 3, held)


def test_a_read_only_sessions_dir_simulated(tmp_path, monkeypatch, figures):
    """EROFS/EACCES from open(2), as a read-only mount would give (works as root too)."""
    sessions = tmp_path / "sessions"
    with SessionLog.create(sessions) as log:
        write_round_one(log)
    before = tree(tmp_path)
    real_open = os.open

    def refuse_writes(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse_writes)
    held = 0
    try:
        with pytest.raises(SessionError, match=f"cannot write in sessions dir {sessions}: Read-only file system"):
            SessionLog.create(sessions)
        held += 1
        with pytest.raises(ResumeError, match=f"cannot open {log.path} for appending: Read-only file system"):
            resume(sessions, log.path.stem)
        held += 1
        assert tree(tmp_path) == before
    finally:
        figures.record("bad input: read-only sessions dir (simulated EROFS)", 2, held)


READ_ONLY_CHILD = """
import sys
from mca.session.log import SessionLog, SessionError
from mca.session.resume import resume, ResumeError
try:
    SessionLog.create(sys.argv[1] + "/sessions")
except SessionError as exc:
    print("create:", exc)
try:
    resume(sys.argv[1] + "/sessions", sys.argv[2])
except ResumeError as exc:
    print("resume:", exc)
"""


def _runs(python: str, user: int | None) -> bool:
    try:
        probe = subprocess.run([python, "-S", "-c", "import sys; assert sys.version_info >= (3, 11); import mca.session.resume"],
                               capture_output=True, user=user, env={"PYTHONPATH": str(SOLUTION)})
    except OSError:
        return False
    return probe.returncode == 0


def test_a_read_only_sessions_dir_for_real(figures):
    """A real permission check: as a normal user chmod works; as root, run the check as nobody."""
    as_root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="mca-ro-"))
    try:
        sessions = base / "sessions"
        with SessionLog.create(sessions) as log:
            write_round_one(log)
        before = log.path.read_bytes()
        base.chmod(0o755)
        sessions.chmod(0o555)
        log.path.chmod(0o444)
        env = {"PYTHONPATH": str(SOLUTION), "PATH": os.environ.get("PATH", "")}
        user = 65534 if as_root else None
        python = next((exe for exe in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3") if _runs(exe, user)), None)
        if python is None:
            pytest.skip("no Python 3.11+ that uid 65534 may run with the solution readable (venv or checkout under a private dir)")
        out = subprocess.run([python, "-S", "-c", READ_ONLY_CHILD, str(base), log.path.stem],
                             env=env, capture_output=True, text=True, user=user)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert lines[0] == f"create: cannot write in sessions dir {sessions}: Permission denied", lines
        assert lines[1] == f"resume: cannot open {log.path} for appending: Permission denied", lines
        assert [p.name for p in sessions.iterdir()] == [log.path.name] and log.path.read_bytes() == before
        figures.record("bad input: read-only sessions dir (real permissions)", 2, 2,
                       "child run as uid 65534 (the suite runs as root)" if as_root else "chmod 0555")
    finally:
        sessions.chmod(0o755)
        for p in sorted(base.rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
        base.rmdir()


def test_a_log_line_of_several_megabytes(tmp_path, figures):
    sessions = tmp_path / "sessions"
    big = "0123456789abcdef" * (8 * 1024 * 1024 // 16)  # 8 MiB of content on one line
    with SessionLog.create(sessions) as log:
        log.append("message", message=SYSTEM)
        log.append("message", message={"role": "user", "content": "read the big file"})
        log.append("message", message={"role": "assistant", "content": "",
                                       "tool_calls": [{"id": "c1", "name": "read_file", "args": {"path": "big"}}]})
        log.append("message", message={"role": "tool", "content": big, "tool_call_id": "c1"})
        log.append("message", message={"role": "assistant", "content": "It is big."})
    assert log.path.stat().st_size > 8 * 1024 * 1024
    result = read_events(log.path)
    assert not result.damaged and [e.seq for e in result.events] == [1, 2, 3, 4, 5]
    assert result.events[3].fields["message"]["content"] == big
    resumed = resume(sessions, log.path.stem)
    with resumed.log:
        assert resumed.forked_from is None and resumed.log.append("usage", input_tokens=1, output_tokens=1).seq == 6
    figures.record("bad input: an 8 MiB log line (read, resume)", 1, 1)


@pytest.mark.parametrize("name, lines, replayed, skipped", [
    ("empty log", [], 0, 0),
    ("only a fork event", [{"seq": 1, "ts": "2026-09-07T10:00:00.000Z", "type": "fork",
                            "from": "s-20260907-090000-abcd", "atSeq": 0}], 0, 1),
    ("only a system message", [{"seq": 1, "ts": "2026-09-07T10:00:00.000Z", "type": "message", "message": SYSTEM}], 1, 0),
])
def test_tiny_logs_resume(tmp_path, figures, name, lines, replayed, skipped):
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path = sessions / "s-20260907-100000-abcd.jsonl"
    data = b"".join((json.dumps(x) + "\n").encode() for x in lines)
    path.write_bytes(data)
    held = 0
    try:
        result = read_events(path)
        assert not result.damaged and len(result.events) == len(lines)
        counts = replay(result.events)
        assert (counts.replayed, counts.skipped) == (replayed, skipped)
        resumed = resume(sessions)
        with resumed.log:
            assert resumed.session_id == path.stem and resumed.forked_from is None
            event = resumed.log.append("message", message={"role": "user", "content": "hello"})
        assert event.seq == len(lines) + 1
        assert path.read_bytes().startswith(data) and not read_events(path).damaged
        held = 1
    finally:
        figures.record("bad input: empty / fork-only / system-only log resumes", 1, held)


def test_files_that_are_not_sessions_are_ignored_by_listing(tmp_path, figures):
    sessions = tmp_path / "sessions"
    with SessionLog.create(sessions) as log:
        write_round_one(log)
    strays = ["notes.jsonl", "zzz.jsonl", "s-20991231-235959-ABCD.jsonl", "s-20991231-235959-ffff.json",
              "s-20991231-235959-ffff.jsonl.bak", "s-20991231-235959-fffff.jsonl", "README", ".s-20991231-235959-ffff.jsonl"]
    for name in strays:
        (sessions / name).write_bytes(b"\x00garbage\n")
    listed = list_sessions(sessions)
    ok = [i.session_id for i in listed] == [log.path.stem] and latest_session_id(sessions) == log.path.stem
    resumed = resume(sessions)
    with resumed.log:
        ok = ok and resumed.session_id == log.path.stem
    figures.record("bad input: stray files ignored by listing and latest", len(strays), len(strays) if ok else 0)
    assert ok, [i.session_id for i in listed]


def test_a_deeply_nested_line_stops_reading_instead_of_raising(tmp_path, figures):
    path = tmp_path / "s-20260907-100000-abcd.jsonl"
    path.write_bytes(b'{"seq": 1, "ts": "t", "type": "usage"}\n' + b"[" * 100_000 + b"\n")
    result = read_events(path)
    assert (len(result.events), result.stopped_at, result.reason) == (1, 2, "not valid JSON")
    figures.record("bad input: a deeply nested line stops reading", 1, 1, "regression test")
