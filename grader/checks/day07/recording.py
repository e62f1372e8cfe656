"""Day 07, check 4 from the inside: the lab's SessionRecorder fed one agent event at a time.

The harness (harnesses/recorder.py) reports, after each `handle` returns, how many
lines the log holds, its last line, and how many writes on the log's file happened
during that call or after it returned. What each line must be comes from the
contract, not from the lab's own `to_log_event`.
"""

from __future__ import annotations

import json

from grader.checkkit import CheckFailed, differing, short
from grader.checkkit.draws import mixed_text
from grader.checkkit.sessionlog import is_utc

TOOL_END_FIELDS = ("id", "name", "ok", "ms", "chars", "truncated", "blocked_by")


def agent_events(rng) -> list[dict]:
    """A turn's agent events as the loop emits them, with random text, ids and numbers:
    an empty file read (its result is ""), a tool round whose tool fails, a round of two
    calls that never ran (one refused by the approval gate, one stopped by the loop guard:
    each still has its ToolFinished, ok false, and a tool_end is its record), a retried
    gateway error whose attempt used no tokens, streamed text, the answer. Every draw has
    all of them. Empty values
    belong to the record: an assistant asking for a tool often says "", and a usage of
    0 tokens is a usage all the same."""
    def call_id() -> str:
        return "call_" + "".join(rng.choices("abcdefghijkmnopqrstuvwxyz0123456789", k=6))

    read_id, run_id, denied_id, looped_id = call_id(), call_id(), call_id(), call_id()
    denied_args = {"path": rng.choice(["calc.py", "notes.md", "pkg/util.py"]), "content": mixed_text(rng)}
    denied = f"the user said no to write_file: {mixed_text(rng, (1, 3))}"
    looped = (f"blocked: run_command was already called 2 times with these arguments in this turn; "
              f"{mixed_text(rng, (1, 3))}")
    read_args = {"path": rng.choice(["__init__.py", "empty.txt", "pkg/__init__.py"])}
    args = {"command": f"python -m unittest {rng.choice(['-v', '-q', ''])}".strip()}
    output = f"exit status 1 ({rng.randint(5, 900)} ms)\n{mixed_text(rng)}\nERROR: test_{rng.choice(['x', 'y'])}"
    answer = mixed_text(rng)
    return [
        {"kind": "MessageAdded", "message": {"role": "user", "content": mixed_text(rng)}},
        {"kind": "UsageReported", "input_tokens": rng.randint(10, 5000), "output_tokens": rng.randint(1, 500)},
        {"kind": "MessageAdded", "message": {"role": "assistant", "content": "",
                                             "tool_calls": [{"id": read_id, "name": "read_file", "args": read_args}]}},
        {"kind": "ToolStarted", "id": read_id, "name": "read_file", "args": read_args},
        {"kind": "ToolFinished", "id": read_id, "name": "read_file", "ok": True, "ms": 0, "chars": 0,
         "truncated": False, "blocked_by": None},
        {"kind": "MessageAdded", "message": {"role": "tool", "tool_call_id": read_id, "content": ""}},
        {"kind": "UsageReported", "input_tokens": rng.randint(10, 5000), "output_tokens": rng.randint(1, 500)},
        {"kind": "TextDelta", "text": mixed_text(rng, (1, 3))},
        {"kind": "MessageAdded", "message": {"role": "assistant", "content": mixed_text(rng),
                                             "tool_calls": [{"id": run_id, "name": "run_command", "args": args}]}},
        {"kind": "ToolStarted", "id": run_id, "name": "run_command", "args": args},
        {"kind": "ToolFinished", "id": run_id, "name": "run_command", "ok": False, "ms": rng.randint(0, 9000),
         "chars": len(output), "truncated": rng.random() < 0.5, "blocked_by": None},  # null is information too
        {"kind": "MessageAdded", "message": {"role": "tool", "tool_call_id": run_id, "content": output}},
        {"kind": "UsageReported", "input_tokens": rng.randint(10, 5000), "output_tokens": rng.randint(1, 500)},
        {"kind": "MessageAdded", "message": {"role": "assistant", "content": rng.choice(["", mixed_text(rng)]),
                                             "tool_calls": [{"id": denied_id, "name": "write_file", "args": denied_args},
                                                            {"id": looped_id, "name": "run_command", "args": args}]}},
        {"kind": "ToolStarted", "id": denied_id, "name": "write_file", "args": denied_args},
        {"kind": "ToolFinished", "id": denied_id, "name": "write_file", "ok": False, "ms": 0, "chars": len(denied),
         "truncated": False, "blocked_by": "approval"},  # never ran: its end is still an event
        {"kind": "MessageAdded", "message": {"role": "tool", "tool_call_id": denied_id, "content": denied}},
        {"kind": "ToolStarted", "id": looped_id, "name": "run_command", "args": args},
        {"kind": "ToolFinished", "id": looped_id, "name": "run_command", "ok": False, "ms": 0, "chars": len(looped),
         "truncated": False, "blocked_by": "loop_guard"},
        {"kind": "MessageAdded", "message": {"role": "tool", "tool_call_id": looped_id, "content": looped}},
        {"kind": "ErrorOccurred", "message": f"model request failed: HTTP 503; trying again ({mixed_text(rng, (1, 2))})",
         "where": "gateway", "retrying": True},
        {"kind": "UsageReported", "input_tokens": 0, "output_tokens": 0},  # the failed attempt
        {"kind": "UsageReported", "input_tokens": rng.randint(10, 5000), "output_tokens": rng.randint(1, 500)},
        {"kind": "TextDelta", "text": answer[: len(answer) // 2]},
        {"kind": "MessageAdded", "message": {"role": "assistant", "content": answer}},
        {"kind": "ErrorOccurred", "message": mixed_text(rng, (2, 4)), "where": "loop"},
    ]


def expected_line(event: dict) -> tuple[str, dict] | None:
    """(type, fields) of the log line an agent event must become; None: not logged."""
    kind = event["kind"]
    if kind == "MessageAdded":
        return "message", {"message": event["message"]}
    if kind == "UsageReported":
        return "usage", {"input_tokens": event["input_tokens"], "output_tokens": event["output_tokens"]}
    if kind == "ToolFinished":
        return "tool_end", {name: event[name] for name in TOOL_END_FIELDS}
    if kind == "ErrorOccurred":
        return "error", {"message": event["message"], "where": event["where"]}
    return None  # TextDelta, ToolStarted: for the screen only


def run_recorder(ctx, events: list[dict]) -> list[dict]:
    script = ctx.harness("recorder")
    job = {"sessions": str(script.parent / "sessions"), "events": events}
    return ctx.harness_answers("recorder", job, count=len(events) + 1, calls="SessionRecorder", label="job",
                               script=script)


def check_recorder(ctx) -> None:
    """Every loggable event is one complete line in the file when `handle` returns, written in
    one write, with the contract's fields; nothing else is written, not even at end_turn."""
    say = ctx.say
    events = agent_events(ctx.rng("recorder"))
    steps = run_recorder(ctx, events)
    lines = 0
    for step in steps:
        index = step["step"]
        event = events[index] if isinstance(index, int) and 0 <= index < len(events) else None
        name = event["kind"] if event else "end_turn()"
        problem = ctx.harness_problem(step, name)
        if problem:
            raise problem
        wanted = expected_line(event) if event else None
        lines += wanted is not None
        if step.get("late"):
            raise CheckFailed(say("recorder.late", call=name))
        if step["lines"] < lines:
            total = sum(expected_line(e) is not None for e in events)
            key = "recorder.not_yet" if steps[-1]["lines"] >= total else "recorder.dropped"
            raise CheckFailed(say(key, call=name, lines=step["lines"], expected=lines),
                              expected=say("brief.lines_when_returns", lines=lines, call=name),
                              seen=say("brief.lines", count=step["lines"]))
        if step["lines"] > lines:
            extra = say("brief.writes_nothing") if wanted is None else say("brief.writes_one_line")
            raise CheckFailed(say("recorder.too_many", call=name, lines=step["lines"], expected=lines, extra=extra),
                              seen=short(step.get("last") or "", 160))
        if not step["complete"]:
            raise CheckFailed(say("recorder.incomplete", call=name))
        if wanted is not None:
            if step["writes"] > 1:
                raise CheckFailed(say("recorder.split", call=name, writes=step["writes"]))
            problem = _line_problem(say, step.get("last"), lines, wanted, name)
            if problem:
                raise problem


def _line_problem(say, text: str | None, seq: int, wanted: tuple[str, dict], name: str) -> CheckFailed | None:
    kind, fields = wanted
    try:
        data = json.loads(text or "")
    except ValueError:
        return CheckFailed(say("recorder.not_json", call=name), seen=short(text or "", 160))
    if not isinstance(data, dict):
        return CheckFailed(say("recorder.not_json", call=name), seen=short(text or "", 160))
    if data.get("seq") != seq or data.get("type") != kind or not is_utc(data.get("ts")):
        return CheckFailed(say("recorder.head_wrong", call=name, seq=seq, kind=kind),
                           seen=short(text or "", 160))
    got = {k: v for k, v in data.items() if k not in ("seq", "ts", "type")}
    for field, value in fields.items():
        if field not in got:
            return CheckFailed(say("recorder.field_missing", call=name, kind=kind, field=field))
        if got[field] != value:
            seen, expected = differing(got[field], value, 120)
            return CheckFailed(say("recorder.field_wrong", call=name, kind=kind, field=field),
                               expected=expected, seen=seen)
    extra = sorted(set(got) - set(fields))
    if extra:
        return CheckFailed(say("recorder.field_extra", call=name, kind=kind, field=extra[0]))
    return None

