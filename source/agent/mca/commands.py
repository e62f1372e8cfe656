# [day 7+]
"""What the CLI and the REPL can ask about sessions, as plain results.

These functions return data (a dict, a list, an id) and never print: the CLI
renders them as text or JSON, the REPL as lines. They call the session package
(day 7's exercise points). A student's unfinished function raises
NotImplementedError, and one being written may raise anything; ``attempt`` turns
either into a note, so one missing or broken piece never takes the others down.
"""

from __future__ import annotations

import copy
import json
import traceback
from pathlib import Path
from typing import Any, Callable

from .session import (ForkError, InvalidSessionId, check_session_id, estimate_tokens, fork,
                      fork_points, read_events, replay, session_path)
from .session.fork import clean_prefix_size, listed_fork_points, missing_event
from .session.log import Event, stop_note


class UserError(Exception):
    """Something the user can fix; the message says what. The CLI exits with status 1."""


def not_implemented(exc: NotImplementedError) -> str:
    return f"not implemented yet: {exc}"


def crashed(function: Callable, exc: Exception) -> str:
    """One line saying which function raised what, and where (for code still being written)."""
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        where = f" ({Path(last.filename).name}, line {last.lineno})"
    return f"{function.__name__}() raised {type(exc).__name__}: {exc}{where}"


def attempt(function: Callable, *args: Any, notes: list[str]) -> Any:
    """Call a session function; if it is a TODO stub or crashes, add a note and return None.

    `log inspect` reports several independent things (reading, replay, fork points):
    one piece that is unfinished or broken must not hide what the others say.
    """
    try:
        return function(*args)
    except NotImplementedError as exc:
        notes.append(not_implemented(exc))
    except Exception as exc:  # noqa: BLE001 - the student's code may raise anything
        notes.append(crashed(function, exc))
    return None


def existing_log(sessions_dir: Path, session_id: str) -> Path:
    """The log of a session that must already exist, refusing bad or unknown ids."""
    try:
        path = session_path(sessions_dir, check_session_id(session_id))
    except InvalidSessionId as exc:
        raise UserError(str(exc)) from None
    if not path.is_file():
        raise UserError(f"no session {session_id} in {sessions_dir} (python -m mca --list shows the sessions there)")
    return path


def inspect_session(sessions_dir: Path, session_id: str) -> dict[str, Any]:
    """Everything `log inspect` reports about one session; unknown values are None."""
    path = existing_log(sessions_dir, session_id)
    report: dict[str, Any] = {
        "session": session_id, "events": None, "last_seq": None, "stopped_at": None, "reason": None,
        "replayed": None, "skipped": None, "token_estimate": None, "fork_points": None, "notes": [],
    }
    notes = report["notes"]
    result = attempt(read_events, path, notes=notes)
    if result is None:
        return report
    report.update(events=len(result.events), last_seq=result.last_seq,
                  stopped_at=result.stopped_at, reason=result.reason)
    if result.damaged:
        notes.append(stop_note(path, result))
    # Each function gets its own copy of the events: one that changes what it is given
    # must not change what the next one sees.
    rebuilt = attempt(replay, copy.deepcopy(result.events), notes=notes)
    if rebuilt is not None:
        report.update(replayed=rebuilt.replayed, skipped=rebuilt.skipped,
                      token_estimate=attempt(estimate_tokens, rebuilt.messages, notes=notes))
    report["fork_points"] = attempt(fork_points, copy.deepcopy(result.events), notes=notes)
    return report


def as_json(report: dict[str, Any]) -> str:
    """The report as one line of JSON; a value JSON has no type for (a set, an object)
    is written as its repr, so one odd value never hides the rest of the report."""
    return json.dumps(report, ensure_ascii=False, default=repr)


def fork_session(sessions_dir: Path, session_id: str, at_seq: int) -> str:
    """Fork ``session_id`` at ``at_seq``; refuse anything but a fork point, naming the valid ones.

    The point is checked here, streaming the log (a fork of a huge log never holds it
    all in memory), so the refusal names the valid points whatever ``fork`` says.
    """
    path = existing_log(sessions_dir, session_id)
    if clean_prefix_size(path, at_seq) is None:
        missing = missing_event(path, at_seq)
        if missing is not None:  # not a bad choice of point: there is no such event
            raise UserError(f"cannot fork {session_id}: {missing}; "
                            f"fork points: {listed_fork_points(path)}")
        raise UserError(f"cannot fork {session_id} at {at_seq}: not a clean boundary; "
                        f"fork points: {listed_fork_points(path)}")
    try:
        return fork(sessions_dir, session_id, at_seq)
    except ForkError as exc:
        raise UserError(str(exc)) from None


# --- short descriptions, for /log and /fork ---------------------------------------

def preview(text: Any, width: int = 40) -> str:
    """One line of at most ``width`` characters, so long messages do not flood the screen."""
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def describe_message(message: dict) -> str:
    calls = [call.get("name", "?") for call in message.get("tool_calls") or []]
    asks = f" [calls {', '.join(calls)}]" if calls else ""
    return f"{message.get('role', '?')}: {preview(message.get('content'))}{asks}"


def describe_event(event: Event) -> str:
    """A short summary of one log event, whatever its type."""
    f = event.fields
    if event.type == "message":
        return describe_message(event.message or {})
    if event.type == "usage":
        return f"in {f.get('input_tokens')}, out {f.get('output_tokens')} tokens"
    if event.type == "tool_end":
        status = "ok" if f.get("ok") else f"failed (blocked by {f['blocked_by']})" if f.get("blocked_by") else "failed"
        truncated = ", truncated" if f.get("truncated") else ""
        return f"{f.get('name')} {status}, {f.get('ms')} ms, {f.get('chars')} chars{truncated}"
    if event.type == "error":
        return f"{f.get('where')}: {preview(f.get('message'), 60)}"
    if event.type == "fork":
        return f"forked from {f.get('from')} at seq {f.get('atSeq')}"
    # [day 8+]
    if event.type == "injected":
        refs = ", ".join(str(ref.get("ref")) for ref in f.get("refs") or [])
        return f"{preview(refs)}: {f.get('chars')} chars ≈ {f.get('tokens')} tokens (sent in the next message)"
    # [/day]
    # [day 10+]
    if event.type == "recalled":
        ids = f.get("ids") or []
        return (f"{len(ids)} of {len(ids) + (f.get('left_out') or 0)} memories, {f.get('chars')} chars "
                f"≈ {f.get('tokens')} tokens (sent in the next message)")
    # [/day]
    # [day 11+]
    if event.type == "plan":
        items = [item for item in f.get("items") or [] if isinstance(item, dict)]
        counts = {status: sum(1 for item in items if item.get("status") == status)
                  for status in ("done", "in_progress", "pending")}
        return (f"{len(items)} items: {counts['done']} done, {counts['in_progress']} in progress, "
                f"{counts['pending']} pending")
    if event.type == "reminded":
        return (f"plan reminder, {f.get('open')} of {f.get('items')} items open, {f.get('chars')} chars "
                f"≈ {f.get('tokens')} tokens (sent in the next message)")
    # [/day]
    # [day 12+]
    if event.type == "compacted":
        return (f"{f.get('messages')} messages up to seq {f.get('upto_seq')} -> summary {f.get('chars')} chars "
                f"≈ {f.get('tokens')} tokens; context ≈ {f.get('before')} -> {f.get('after')} tokens")
    # [/day]
    # [day 13+]
    if event.type == "subagent":
        return f"side task {preview(f.get('description'))} for call {f.get('call')}: subagent {f.get('session')}"
    if event.type == "task_answer":
        cut = ", cut" if f.get("truncated") else ""
        rounds = f"{f.get('rounds')} round" + ("" if f.get("rounds") == 1 else "s")
        return (f"answer of the task of call {f.get('call')} after {rounds}: {f.get('chars')} chars "
                f"≈ {f.get('tokens')} tokens{cut} (sent as the call's result)")
    # [/day]
    # [day 14+]
    if event.type == "snapshot":
        was = f"was {str(f['hash'])[:12]}" if f.get("hash") else "did not exist"
        now = f"now {str(f['after'])[:12]}" if f.get("after") else "now removed"
        made = f" (made {', '.join(str(d) + '/' for d in f['dirs'])})" if f.get("dirs") else ""
        return f"{f.get('path')}: {was}, {now}{made}"
    if event.type == "rollback":
        kept = f", kept {', '.join(map(str, f['kept']))}" if f.get("kept") else ""
        return f"{f.get('command')}: back to seq {f.get('to_seq')}, {len(f.get('files') or [])} file(s){kept}"
    # [/day]
    return "(a type this version does not know; kept, not replayed)"


def fork_menu(events: list[Event], points: list[int]) -> list[str]:
    """Lines like ``/fork 2  user: run the tests and tell me...`` for each fork point."""
    by_seq = {event.seq: event for event in events}
    return [f"/fork {seq}  {describe_message(by_seq[seq].message or {})}" for seq in points if seq in by_seq]
# [/day]
