from __future__ import annotations

from mca.agent.events import ErrorOccurred, MessageAdded, TextDelta, ToolFinished, ToolStarted, UsageReported
from mca.session.log import SessionLog, read_events
from mca.session.recorder import SessionRecorder

from .conftest import CALL, SYSTEM, USER


def lines(path):
    return path.read_bytes().count(b"\n")


def test_each_event_is_on_disk_as_soon_as_it_is_handled(sessions):
    with SessionLog.create(sessions) as log:
        recorder = SessionRecorder(log)
        steps = [MessageAdded(SYSTEM), MessageAdded(USER), TextDelta("Run"), UsageReported(10, 5), MessageAdded(CALL),
                 ToolStarted("call_1", "run_command", {}), ToolFinished("call_1", "run_command", False, 12, 40, False, None),
                 ErrorOccurred("gateway timed out", "gateway")]
        seen = []
        for step in steps:
            recorder.handle(step)
            seen.append(lines(log.path))
        recorder.end_turn()
    assert seen == [1, 2, 2, 3, 4, 4, 5, 6]  # text deltas and tool starts are screen-only
    events = read_events(log.path).events
    assert [e.type for e in events] == ["message", "message", "usage", "message", "tool_end", "error"]
    assert events[4].fields == {"id": "call_1", "name": "run_command", "ok": False, "ms": 12, "chars": 40,
                                "truncated": False, "blocked_by": None}
    assert events[5].fields == {"message": "gateway timed out", "where": "gateway"}
