"""2. Damage fuzzing with hypothesis: byte flips, NUL runs, duplicated, swapped and spliced
lines, deleted newlines.

For every damaged copy of the canonical 19-event log:

* ``read_events`` raises nothing (an OSError would be the only excuse) and leaves the bytes;
* its verdict equals the oracle's (``helpers.expected_read``, which does not call the package);
* the events before the first damaged line are exactly the original ones, and none is
  returned at or after the reported line;
* where the damage kind decides the verdict on its own (NUL run, duplicate, swap, splice,
  deleted newline), the reported line and reason are the ones that kind must give.

Runs are deterministic (``derandomize=True``, no example database) and bounded:
``RELIABILITY_EXAMPLES`` examples per damage kind (default 50).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mca.session.log import SessionLog, read_events
from mca.session.resume import ResumeError, resume

from .helpers import as_tuple, expected_read, seq_stop, two_rounds

EXAMPLES = int(os.environ.get("RELIABILITY_EXAMPLES", "50"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """The canonical log's lines, and the lines of another session (seqs 1..30) to splice from."""
    base = tmp_path_factory.mktemp("fuzz")
    source = two_rounds(base / "a")
    with SessionLog.create(base / "b") as other:
        for n in range(30):
            other.append("usage", input_tokens=1000 + n, output_tokens=n)
    return source.read_bytes().splitlines(keepends=True), other.path.read_bytes().splitlines(keepends=True)


def first_changed_line(original: bytes, damaged: bytes) -> int:
    """1-based number of the first line of ``damaged`` that is not the original's line."""
    a, b = original.splitlines(keepends=True), damaged.splitlines(keepends=True)
    for n, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return n
    return min(len(a), len(b)) + 1


def check(data: bytes, original: bytes, stats: dict, expected_line=None, expected_reason=None) -> None:
    stats["tried"] += 1
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s-20260907-100000-abcd.jsonl"
        path.write_bytes(data)
        try:
            result = read_events(path)
        except OSError:
            raise
        except Exception as exc:  # the property: nothing else escapes
            raise AssertionError(f"read_events raised {type(exc).__name__}: {exc}") from exc
        assert path.read_bytes() == data, "reading changed the file"
    oracle = expected_read(data)
    got = [as_tuple(e) for e in result.events]
    assert got == oracle.events and (result.stopped_at, result.reason) == (oracle.stopped_at, oracle.reason)
    if result.stopped_at is not None:
        assert len(result.events) == result.stopped_at - 1, "an event at or after the bad line was returned"
    first = first_changed_line(original, data)
    want = [as_tuple(e) for e in original_events(original)][: first - 1]
    assert got[: first - 1] == want and len(got) >= first - 1, "events before the damage were lost or changed"
    if expected_line is not None:
        assert (result.stopped_at, result.reason) == (expected_line, expected_reason)
    if result.stopped_at is None:
        stats["silent"] += 1  # well-formed damage: every line still parses (no checksums in this format)
    elif result.stopped_at > first:
        stats["late"] += 1  # the damaged line parsed; the seq check caught it on a later line
    stats["held"] += 1


_ORIGINAL_EVENTS: dict[bytes, list] = {}


def original_events(original: bytes):
    if original not in _ORIGINAL_EVENTS:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x.jsonl"
            path.write_bytes(original)
            _ORIGINAL_EVENTS[original] = read_events(path).events
    return _ORIGINAL_EVENTS[original]


def run(figures, area, prop, note=""):
    stats = {"tried": 0, "held": 0, "silent": 0, "late": 0}
    try:
        prop(stats)
    finally:
        extra = []
        if stats["late"]:
            extra.append(f"{stats['late']} caught on a later line")
        if stats["silent"]:
            extra.append(f"{stats['silent']} not detectable (every line still well-formed)")
        figures.record(area, stats["tried"], stats["held"], "; ".join([note] * bool(note) + extra))


def test_byte_flips(logs, figures):
    lines, _ = logs
    original = b"".join(lines)

    @FUZZ
    @given(st.lists(st.tuples(st.integers(0, len(original) - 1), st.integers(1, 255)), min_size=1, max_size=3))
    def prop(stats, flips):
        data = bytearray(original)
        for at, mask in flips:
            data[at] ^= mask
        check(bytes(data), original, stats)

    run(figures, "damage: byte flips (1-3)", lambda stats: prop(stats))


def test_nul_runs(logs, figures):
    lines, _ = logs
    original = b"".join(lines)

    @FUZZ
    @given(st.integers(0, len(original)), st.integers(1, 512))
    def prop(stats, at, length):
        data = original[:at] + b"\0" * length + original[at:]
        line = original[:at].count(b"\n") + 1
        reason = "last line incomplete" if at == len(original) else "not valid JSON"
        check(data, original, stats, line, reason)

    run(figures, "damage: inserted NUL runs", lambda stats: prop(stats))


def test_duplicated_lines(logs, figures):
    lines, _ = logs
    original = b"".join(lines)
    n = len(lines)

    @FUZZ
    @given(st.integers(0, n - 1), st.integers(0, n))
    def prop(stats, i, j):
        damaged = lines[:j] + [lines[i]] + lines[j:]  # a copy of line i+1 inserted before line j+1
        line, reason = seq_stop(damaged)  # the copy, unless it happens to carry the next seq
        assert line == (j + 2 if i == j else j + 1)
        check(b"".join(damaged), original, stats, line, reason)

    run(figures, "damage: duplicated lines", lambda stats: prop(stats))


def test_swapped_lines(logs, figures):
    lines, _ = logs
    original = b"".join(lines)
    n = len(lines)

    @FUZZ
    @given(st.integers(0, n - 2).flatmap(lambda i: st.tuples(st.just(i), st.integers(i + 1, n - 1))))
    def prop(stats, pair):
        i, j = pair
        damaged = list(lines)
        damaged[i], damaged[j] = damaged[j], damaged[i]
        line, reason = seq_stop(damaged)  # the line moved up: its seq skips ahead
        assert line == i + 1
        check(b"".join(damaged), original, stats, line, reason)

    run(figures, "damage: swapped lines", lambda stats: prop(stats))


def test_spliced_from_another_session(logs, figures):
    lines, other = logs
    original = b"".join(lines)
    n = len(lines)

    @FUZZ
    @given(st.integers(0, len(other) - 1), st.integers(0, n))
    def prop(stats, k, j):
        damaged = lines[:j] + [other[k]] + lines[j:]
        line, reason = seq_stop(damaged)
        # Only a line that happens to carry the next seq, appended at the very end, cannot be told apart.
        assert line == (j + 1 if k != j else (j + 2 if j < n else None))
        check(b"".join(damaged), original, stats, line, reason)

    run(figures, "damage: line spliced from another session", lambda stats: prop(stats))


def test_deleted_newlines(logs, figures):
    lines, _ = logs
    original = b"".join(lines)
    n = len(lines)

    @FUZZ
    @given(st.integers(0, n - 1))
    def prop(stats, i):
        damaged = list(lines)
        damaged[i] = damaged[i][:-1]
        reason = "last line incomplete" if i == n - 1 else "not valid JSON"
        check(b"".join(damaged), original, stats, i + 1, reason)

    run(figures, "damage: deleted newlines", lambda stats: prop(stats))


def test_resume_of_damaged_logs(logs, figures):
    """Resume of a damaged log raises nothing but ResumeError and never changes the file."""
    lines, other = logs
    original = b"".join(lines)
    damage = st.one_of(
        st.tuples(st.just("flip"), st.integers(0, len(original) - 1), st.integers(1, 255)),
        st.tuples(st.just("nul"), st.integers(0, len(original)), st.integers(1, 64)),
        st.tuples(st.just("cut"), st.integers(0, len(original)), st.just(0)),
        st.tuples(st.just("splice"), st.integers(0, len(other) - 1), st.integers(0, len(lines))),
    )

    @settings(FUZZ, max_examples=2 * EXAMPLES)
    @given(damage)
    def prop(stats, spec):
        kind, a, b = spec
        if kind == "flip":
            data = bytearray(original)
            data[a] ^= b
            data = bytes(data)
        elif kind == "nul":
            data = original[:a] + b"\0" * b + original[a:]
        elif kind == "cut":
            data = original[:a]
        else:
            data = b"".join(lines[:b] + [other[a]] + lines[b:])
        stats["tried"] += 1
        with tempfile.TemporaryDirectory() as tmp:
            sessions = Path(tmp)
            path = sessions / "s-20260907-100000-abcd.jsonl"
            path.write_bytes(data)
            try:
                resumed = resume(sessions, path.stem)
            except ResumeError:
                assert sorted(p.name for p in sessions.iterdir()) == [path.name]
            else:
                with resumed.log:
                    resumed.log.append("message", message={"role": "user", "content": "go on"})
                if resumed.forked_from is None:
                    assert path.read_bytes().startswith(data)
                else:
                    assert path.read_bytes() == data
                target = sessions / f"{resumed.session_id}.jsonl"
                after = read_events(target)
                assert not after.damaged and after.events[-1].fields["message"]["content"] == "go on"
        stats["held"] += 1

    stats = {"tried": 0, "held": 0}
    try:
        prop(stats)
    finally:
        figures.record("damage: resume raises only ResumeError, file unchanged", stats["tried"], stats["held"], "")


def _one_line(data: dict) -> bytes:
    import json

    return (json.dumps(data) + "\n").encode()


@pytest.mark.parametrize("second", [
    {"seq": 2, "ts": "t", "type": "message", "mdssage": {"role": "user", "content": "u"}},
    {"seq": 2, "ts": "t", "type": "message", "message": "hello"},
])
def test_resume_survives_a_message_event_without_a_message(tmp_path, figures, second):
    path = tmp_path / "s-20260907-100000-abcd.jsonl"
    data = _one_line({"seq": 1, "ts": "t", "type": "message", "message": {"role": "system", "content": "x"}}) + _one_line(second)
    path.write_bytes(data)
    try:
        resumed = resume(tmp_path, path.stem)
    except ResumeError:
        pass
    else:
        resumed.log.close()
    assert path.read_bytes() == data
    figures.record("damage: a message event without a message object stops reading", 1, 1, "regression test")
