"""1. A log torn at every byte offset: read it, then resume it.

The canonical two-round log (19 events) is cut at every offset 0..size. For each cut:
reading returns exactly the lines complete before the cut, reports a cut inside a line
as that line with "last line incomplete", and never changes the bytes; ``open_append``
refuses a torn file; resume appends in place when the cut is at a clean boundary (the
old bytes stay a prefix of the file) and otherwise continues in a recovery fork while
the cut file stays byte-identical.
"""

from __future__ import annotations

from pathlib import Path

from mca.session.ids import session_path
from mca.session.log import LogDamaged, SessionLog, read_events
from mca.session.resume import ResumeError, resume

from .helpers import as_tuple, copy_log, expected_resume, two_rounds

NEW = {"role": "user", "content": "after the cut"}


def _check_read(path: Path, data: bytes, original: list[tuple]) -> None:
    complete = data.count(b"\n")
    result = read_events(path)
    assert [as_tuple(e) for e in result.events] == original[:complete], "events are not the complete lines"
    if data == b"" or data.endswith(b"\n"):
        assert (result.stopped_at, result.reason) == (None, None), "a cut at a line boundary reported damage"
    else:
        assert (result.stopped_at, result.reason) == (complete + 1, "last line incomplete")
    assert path.read_bytes() == data, "reading changed the file"
    if result.damaged:  # the writer itself must refuse to glue a new line onto the torn one
        try:
            SessionLog.open_append(path, result.last_seq).close()
        except LogDamaged as exc:
            assert "ends in an incomplete line" in str(exc), str(exc)
        else:
            raise AssertionError("open_append accepted a file with a torn last line")
        assert path.read_bytes() == data, "a refused open_append changed the file"


def _check_resume(path: Path, data: bytes) -> str:
    sessions = path.parent
    result = read_events(path)
    mode, at_seq = expected_resume(result.events, result.damaged)
    if mode == "refuse":
        try:
            resume(sessions, path.stem)
        except ResumeError as exc:
            assert "no clean point" in str(exc), str(exc)
        else:
            raise AssertionError("resume continued a log with no fork point")
        assert sorted(p.name for p in sessions.iterdir()) == [path.name], "a refused resume created a file"
        assert path.read_bytes() == data
        return mode
    resumed = resume(sessions, path.stem)
    with resumed.log:
        resumed.log.append("message", message=NEW)
    if mode == "append":
        assert resumed.session_id == path.stem and resumed.forked_from is None
        after = path.read_bytes()
        assert after.startswith(data), "resume rewrote bytes before the end"
        assert after.count(b"\n") == data.count(b"\n") + 1
        assert read_events(path).events[-1].fields == {"message": NEW}
        assert not read_events(path).damaged
    else:
        assert path.read_bytes() == data, "the damaged file changed"
        assert resumed.forked_from == path.stem and resumed.session_id != path.stem
        child = session_path(sessions, resumed.session_id).read_bytes().splitlines(keepends=True)
        assert child[:at_seq] == data.splitlines(keepends=True)[:at_seq], "the fork is not a byte copy"
        events = read_events(session_path(sessions, resumed.session_id)).events
        assert [(e.seq, e.type) for e in events[at_seq:]] == [(at_seq + 1, "fork"), (at_seq + 2, "message")]
        assert events[at_seq].fields == {"from": path.stem, "atSeq": at_seq}
    return mode


def test_every_byte_offset(tmp_path, figures):
    source = two_rounds(tmp_path / "original")
    full = source.read_bytes()
    original = [as_tuple(e) for e in read_events(source).events]
    assert len(original) == 19

    read_failures, resume_failures, modes = [], [], {}
    for cut in range(len(full) + 1):
        data = full[:cut]
        path = copy_log(source, tmp_path / f"cut{cut}", data)
        try:
            _check_read(path, data, original)
        except AssertionError as exc:
            read_failures.append((cut, str(exc)))
        try:
            mode = _check_resume(path, data)
            modes[mode] = modes.get(mode, 0) + 1
        except (AssertionError, ResumeError) as exc:
            resume_failures.append((cut, f"{type(exc).__name__}: {exc}"))

    cuts = len(full) + 1
    boundaries = full.count(b"\n") + 1
    figures.record("torn at every byte offset: read", cuts, cuts - len(read_failures),
                   f"{boundaries} cuts at a line boundary, {cuts - boundaries} inside a line")
    figures.record("torn at every byte offset: resume", cuts, cuts - len(resume_failures),
                   ", ".join(f"{n} {m}" for m, n in sorted(modes.items())))
    assert not read_failures, read_failures[:5]
    assert not resume_failures, resume_failures[:5]
