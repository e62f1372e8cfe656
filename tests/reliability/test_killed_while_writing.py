"""3. Killed while writing: a writer process appends events in a loop and is SIGKILLed at
random moments.

Each time: every seq the writer printed (after its append returned) is on disk; the
readable events are exactly events 1..k as written (contiguous, same content); anything
after them is one torn line that is a prefix of the next event; then ``resume()``, two new
events and a second ``resume()`` keep the new events (in a recovery fork when the tail is
torn or ends mid tool round) while the killed file stays byte-identical.

``RELIABILITY_KILLS`` (default 200) kills, ``RELIABILITY_FSYNC_KILLS`` (default 10) more
with ``MCA_FSYNC=1``; ``RELIABILITY_SEED`` (default 7) fixes the moments.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time

import pytest
from freezegun import freeze_time

from mca.session.ids import session_path
from mca.session.log import SessionLog, read_events
from mca.session.resume import ResumeError, resume

from tests.session.conftest import write_round_one

from .helpers import expected_resume
from .procs import read_line, read_rest, writer
from .writer import event_for

KILLS = int(os.environ.get("RELIABILITY_KILLS", "200"))
FSYNC_KILLS = int(os.environ.get("RELIABILITY_FSYNC_KILLS", "10"))
SEED = int(os.environ.get("RELIABILITY_SEED", "7"))
AFTER = [{"role": "user", "content": "after the kill"}, {"role": "assistant", "content": "carrying on"}]


def kill_once(directory, rng, fsync: bool) -> dict:
    """Start a writer, SIGKILL it at a random moment, check what is left. Returns what happened."""
    early = rng.random() < 0.1  # sometimes while it starts up or creates the session
    delay = rng.uniform(0, 0.02) if early else rng.uniform(0, 0.005)
    buffer = bytearray()
    with writer("write", directory, fsync=fsync) as proc:
        if not early:
            assert read_line(proc, buffer).startswith("id ")
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        printed = read_rest(proc, buffer)
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode(errors="replace")[-2000:]
    acked = [int(line) for line in printed if not line.startswith("id ")]
    files = sorted(directory.glob("*.jsonl"))
    if not files:
        assert not acked, "seqs were acknowledged but there is no log"
        return {"outcome": "no file"}
    (path,) = files
    before = path.read_bytes()
    result = read_events(path)
    seqs = [e.seq for e in result.events]
    k = len(seqs)
    assert acked == list(range(1, len(acked) + 1)), "the writer's own acks are not contiguous"
    assert seqs == list(range(1, k + 1)), f"readable seqs are not 1..{k}"
    assert k >= len(acked), f"acknowledged seq {len(acked)} is not on disk (only {k})"
    assert k <= len(acked) + 1, "more complete lines than appends that could have returned"
    for event in result.events:
        assert (event.type, event.fields) == event_for(event.seq), f"event {event.seq} differs from what was written"
    tail = before[len(b"".join(before.splitlines(keepends=True)[:k])):]
    if result.damaged:
        assert (result.stopped_at, result.reason) == (k + 1, "last line incomplete")
        assert b"\n" not in tail, "more than one line after the last complete one"
        start = json.dumps({"seq": k + 1, "ts": ""})[:-2].encode()  # b'{"seq": K, "ts": '
        assert tail[: len(start)] == start[: len(tail)], "the torn tail is not the start of the next event"
    else:
        assert tail == b""
    assert path.read_bytes() == before, "reading changed the file"

    mode, at_seq = expected_resume(result.events, result.damaged)
    if mode == "refuse":
        with pytest.raises(ResumeError, match="no clean point"):
            resume(directory)
        assert sorted(directory.iterdir()) == [path] and path.read_bytes() == before
        return {"outcome": "refused (no fork point yet)", "torn": result.damaged}
    first = resume(directory)
    with first.log:
        for message in AFTER:
            first.log.append("message", message=message)
    if mode == "append":
        assert first.session_id == path.stem and first.forked_from is None
        assert path.read_bytes().startswith(before)
    else:
        assert first.forked_from == path.stem, "a damaged or unfinished log was appended to"
        assert path.read_bytes() == before, "the killed file changed"
        child = session_path(directory, first.session_id).read_bytes().splitlines(keepends=True)
        assert child[:at_seq] == before.splitlines(keepends=True)[:at_seq]
    second = resume(directory)
    with second.log:
        assert second.session_id == first.session_id and second.forked_from is None, "the second resume lost the branch"
        assert second.messages[-2:] == AFTER, "the new events did not survive"
    if mode == "fork":
        assert path.read_bytes() == before, "the killed file changed after the second resume"
    return {"outcome": mode, "torn": result.damaged}


def storm(tmp_path, figures, area, count, fsync, seed):
    rng = random.Random(seed)
    failures, outcomes, torn = [], {}, 0
    for n in range(count):
        directory = tmp_path / f"kill{n}"
        directory.mkdir()
        try:
            got = kill_once(directory, rng, fsync)
        except (AssertionError, ResumeError, pytest.fail.Exception) as exc:
            failures.append((n, f"{type(exc).__name__}: {exc}"))
            continue
        outcomes[got["outcome"]] = outcomes.get(got["outcome"], 0) + 1
        torn += bool(got.get("torn"))
    note = f"{torn} torn tails; " + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items()))
    figures.record(area, count, count - len(failures), note)
    assert not failures, failures[:5]


@pytest.mark.slow
def test_sigkill_storm(tmp_path, figures):
    storm(tmp_path, figures, "killed while writing (SIGKILL)", KILLS, fsync=False, seed=SEED)


@pytest.mark.slow
def test_sigkill_storm_with_fsync(tmp_path, figures, monkeypatch):
    monkeypatch.setenv("MCA_FSYNC", "1")
    storm(tmp_path, figures, "killed while writing, MCA_FSYNC=1", FSYNC_KILLS, fsync=True, seed=SEED + 1)


def test_a_recovery_fork_is_the_latest_even_at_the_end_of_a_second(tmp_path, figures):
    sessions = tmp_path / "sessions"
    with freeze_time("2026-09-07 10:00:00", tick=True):  # the clock runs, from the start of a second
        with SessionLog.create(sessions, "s-20260907-100000-ffff") as log:
            write_round_one(log)
        os.truncate(log.path, log.path.stat().st_size - 5)
        first = resume(sessions)
        with first.log:
            first.log.append("message", message=AFTER[0])
        assert first.forked_from == log.path.stem
        second = resume(sessions)
        second.log.close()
    assert second.session_id == first.session_id, (
        f"latest is {second.session_id}, not the recovery fork {first.session_id}")
    figures.record("killed: a recovery fork sorts last even at the end of a second", 1, 1, "regression test")
