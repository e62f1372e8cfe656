"""``python -m mca demo crash``: why sessions are an append-only log, shown on real files.

Three short acts, in a fresh temp directory (printed, and left there to look at):

1. a snapshot session - one JSON file rewritten every turn - dies half-way through
   a rewrite: the file no longer parses and every message is gone;
2. round 1 as an append-only log dies half-way through its last line (the final
   answer): reading stops at that line, names it, and everything before it comes back;
3. work goes on after recovery, in a recovery fork that starts at the last valid
   point (here the end of the finished tool round: the test run and its result are
   kept): a second resume keeps the new events, and the damaged file is still byte
   for byte what the crash left.

No API key is needed: the mock model answers.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from .agent.loop import run_turn
from .gateway.mock import MockGateway
from .session import SessionLog, read_events, replay
from .session.log import utc_timestamp
from .session.recorder import SessionRecorder
from .session.resume import resume
from .tools.approval import Approver
from .tools.registry import ToolRegistry

USER = "run the tests and tell me which case fails"
TOOL_OUTPUT = "exit status 1 (41 ms)\n...\nERROR: test_divide_by_zero\nRan 4 tests\nFAILED (errors=1)\n"
CALL = {"id": "call_1", "name": "run_command", "args": {"command": "python -m unittest -v"}}

# Round 1 of the walk-through (5 messages, 3 other events), then the user's next request.
HISTORY = [
    ("message", {"message": {"role": "system", "content": "You are mca, a small coding agent."}}),
    ("message", {"message": {"role": "user", "content": USER}}),
    ("usage", {"input_tokens": 40, "output_tokens": 17}),
    ("message", {"message": {"role": "assistant", "content": "I will run the tests.", "tool_calls": [CALL]}}),
    ("tool_end", {"id": "call_1", "name": "run_command", "ok": True, "ms": 41, "chars": len(TOOL_OUTPUT),
                  "truncated": False, "blocked_by": None}),
    ("message", {"message": {"role": "tool", "tool_call_id": "call_1", "content": TOOL_OUTPUT}}),
    ("usage", {"input_tokens": 90, "output_tokens": 12}),
    ("message", {"message": {"role": "assistant", "content": "The failing case is test_divide_by_zero."}}),
    ("message", {"message": {"role": "user", "content": "fix it"}}),
]
TURN_1 = HISTORY[:8]


def run_crash_demo() -> int:
    root = Path(tempfile.mkdtemp(prefix="mca-demo-"))
    print(f"working in {root}\n")
    snapshot_act(root / "session.json")
    session_id = append_only_act(root / "sessions")
    recovery_act(root / "sessions", session_id)
    return 0


def messages_of(events: list[tuple[str, dict]]) -> list[dict]:
    return [fields["message"] for kind, fields in events if kind == "message"]


def snapshot_act(path: Path) -> None:
    """Act 1: rewrite the whole session each turn, and die during the second rewrite."""
    print("1. snapshot: one JSON file, rewritten after every turn")
    path.write_text(json.dumps({"messages": messages_of(TURN_1)}), encoding="utf-8")
    print(f"   turn 1 saved: {len(messages_of(TURN_1))} messages in {path.name}")
    data = json.dumps({"messages": messages_of(HISTORY)}).encode("utf-8")
    with open(path, "wb") as handle:  # "w" empties the file before the new bytes arrive
        handle.write(data[: len(data) // 2])  # ...and the process dies here
    print(f"   turn 2: the process died after writing {len(data) // 2} of {len(data)} bytes")
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        print(f"   reading it back: {exc}")
    print("   -> nothing can be recovered, not even turn 1, which had been saved whole\n")


def append_only_act(sessions_dir: Path) -> str:
    """Act 2: round 1 as an append-only log, torn in the middle of its last line."""
    print("2. event log: one line per event, only ever appended")
    with SessionLog.create(sessions_dir) as log:
        for kind, fields in TURN_1[:-1]:
            log.append(kind, **fields)
        path, last_seq = log.path, log.next_seq - 1
    kind, fields = TURN_1[-1]
    line = json.dumps({"seq": last_seq + 1, "ts": utc_timestamp(), "type": kind, **fields}) + "\n"
    with open(path, "ab") as handle:
        handle.write(line.encode("utf-8")[: len(line) // 2])  # the process dies mid-line
    print(f"   {len(TURN_1)} events; the process died half-way through line {len(TURN_1)}, the final answer")
    result = read_events(path)
    rebuilt = replay(result.events)
    print(f"   reading it back: {len(result.events)} events, "
          f"stopped at line {result.stopped_at}: {result.reason}")
    print(f"   -> {rebuilt.replayed} of {len(messages_of(TURN_1))} messages recovered; "
          "only the torn event is lost\n")
    return path.stem


def recovery_act(sessions_dir: Path, session_id: str) -> None:
    """Act 3: resume, work in the recovery fork, resume again; the damaged file never changes."""
    print("3. keep working after the crash")
    damaged = sessions_dir / f"{session_id}.jsonl"
    before = sha256(damaged)
    resumed = resume(sessions_dir, session_id)
    print(f"   resume {session_id}:")
    for note in resumed.notes:  # as the CLI prints them: why, where the work goes on, then the session
        print(f"     {note}")
    print(f"     resumed {resumed.session_id}: {resumed.replayed} messages restored")
    kept = read_events(sessions_dir / f"{resumed.session_id}.jsonl").events
    at_seq = kept[-1].fields.get("atSeq") if kept and kept[-1].type == "fork" else None
    if at_seq is not None:
        print(f"   kept: events 1-{at_seq} of the {len(read_events(damaged).events)} readable ones, "
              f"{resumed.replayed} messages; the model goes on from there")
    recorder = SessionRecorder(resumed.log)
    tools = ToolRegistry()
    run_turn(resumed.messages, "hello again", gateway=MockGateway(), tools=tools,
             approver=Approver.for_tools(tools), emit=recorder.handle)
    recorder.end_turn()
    resumed.log.close()
    print(f"   one more turn recorded in {resumed.session_id}")
    again = resume(sessions_dir, resumed.session_id)
    again.log.close()
    print(f"   resume {again.session_id} once more: {again.replayed} messages restored, "
          "the new turn included")
    same = "unchanged (same sha256)" if sha256(damaged) == before else "CHANGED"
    print(f"   the damaged file {damaged.name}: {same}")
    print("   -> the file loses at most the event being written; the conversation resumes from the "
          "last valid point (a user message, an answer without tool calls, or the end of a finished "
          "tool round, whose results are kept); new work never goes after a damaged line")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
