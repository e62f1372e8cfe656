"""Session logs that follow the day-07 contract, generated for each grading run.

Why generate: a check that reads a committed fixture log can be passed by a lab that
memorises that file's answers (its fork points, its five messages). A log drawn from
the seed the report prints is new on every run and still reproducible with
`grader check day-07 --seed N`. Everything here depends only on the `random.Random`
it is handed, so the same seed gives the same bytes.

This is the grader's own statement of the contract (shared/days/day-07.md), written
without the lab's or the solution's code. Each `GeneratedLog` knows what a correct
reader, replay and fork must report for it (`messages`, `replayed`, `skipped`,
`fork_points`), so a check never has to ask a reference implementation for the answer.
"""

from __future__ import annotations

import copy
import json
import random
import string
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from .draws import (ASCII_WORDS, FIX_PHRASES, UNESCAPED_BREAKS, VOICES, mixed_text, new_seed, parse_ts,
                    random_time, rng_for, said, session_id, speaking, turn_text, utc_ts, voice_now)

from .logshape import KNOWN_TYPES, Event, GeneratedLog, _is_fork_point, encode  # noqa: F401 (loggen's names)


# ----------------------------------------------------------------------------- event bodies
# A body is an event without seq and ts. Logs are built as bodies first and numbered
# last, so inserting an extra event anywhere keeps seq 1..n with no renumbering code.

def _message(role: str, content: str, **extra: Any) -> Event:
    return {"type": "message", "message": {"role": role, "content": content, **extra}}


def _usage(rng: random.Random) -> Event:
    return {"type": "usage", "input_tokens": rng.randint(20, 4000), "output_tokens": rng.randint(5, 400)}


def _call_id(rng: random.Random, used: set[str]) -> str:
    """`call_x7Q2`-like and unique within the log (a tool message names the call it answers)."""
    while True:
        candidate = "call_" + "".join(rng.choices(string.ascii_letters + string.digits, k=4))
        if candidate not in used:
            used.add(candidate)
            return candidate


def _tool_round(rng: random.Random, used: set[str], name: str, args: dict[str, Any],
                say: str, result: str, ms: int) -> list[Event]:
    """The contract's order: usage, assistant with the call, its tool_end, the tool result."""
    call = _call_id(rng, used)
    return [
        _usage(rng),
        _message("assistant", say, tool_calls=[{"id": call, "name": name, "args": args}]),
        {"type": "tool_end", "id": call, "name": name, "ok": True, "ms": ms, "chars": len(result),
         "truncated": False, "blocked_by": None},
        {"type": "message", "message": {"role": "tool", "tool_call_id": call, "content": result}},
    ]


@dataclass(frozen=True)
class _Suite:
    """A made-up unittest suite: which module it tests, its cases, the one that fails."""

    module: str
    prefix: str  # "test_calc.CalcTests"
    cases: list[str]
    failing: str

    @classmethod
    def draw(cls, rng: random.Random) -> "_Suite":
        module = rng.choice(ASCII_WORDS)
        cases: list[str] = []
        count = rng.randint(3, 6)
        while len(cases) < count:
            case = "test_" + "_".join(rng.sample(ASCII_WORDS, 2))
            if case not in cases:
                cases.append(case)
        return cls(module, f"test_{module}.{module.title()}Tests", sorted(cases), rng.choice(cases))

    def output(self, rng: random.Random, ms: int, fixed: bool) -> str:
        """What `python -m unittest -v` prints, before and after the fix."""
        lines = [f"exit status {0 if fixed else 1} ({ms} ms)"]
        lines += [f"{c} ({self.prefix}.{c}) ... {'ERROR' if c == self.failing and not fixed else 'ok'}"
                  for c in self.cases]
        lines.append("")
        if not fixed:
            lines += ["=" * 70, f"ERROR: {self.failing} ({self.prefix}.{self.failing})", "-" * 70,
                      "Traceback (most recent call last):",
                      f'  File "/tmp/{rng.choice(ASCII_WORDS)}/test_{self.module}.py", line '
                      f"{rng.randint(5, 90)}, in {self.failing}",
                      f"ZeroDivisionError: {said(rng, (3, 6))}", ""]
        lines += ["-" * 70, f"Ran {len(self.cases)} tests in 0.{rng.randint(0, 9):03d}s", "",
                  "OK" if fixed else "FAILED (errors=1)", ""]
        return "\n".join(lines)


def _round1_bodies(rng: random.Random, suite: _Suite, used: set[str], *, empty_read: bool = False,
                   long_output: bool = False) -> list[Event]:
    system = _message("system", "You are mca, a small coding agent. " + said(rng, (6, 14)))
    system["config"] = {"gateway": "mock", "model": f"mock-{rng.getrandbits(16):04x}", "base_url": None}
    command = rng.choice(("python -m unittest -v", "python3 -m unittest -v", "python -m unittest discover -v"))
    ms = rng.randint(20, 900)
    output = suite.output(rng, ms, fixed=False)
    if long_output:
        output += _long_text(rng)
    # An empty file read first: the tool result's content is "" and still a message.
    first = (_tool_round(rng, used, "read_file", {"path": "__init__.py"}, "", "", rng.randint(0, 3))
             if empty_read else [])
    return [system, _message("user", turn_text(rng, "user")), *first,
            *_tool_round(rng, used, "run_command", {"command": command}, _said_with_call(rng), output, ms),
            _usage(rng),
            # The final answer always holds CJK and emoji, so a torn tail can be cut inside one,
            # and a line break JSON leaves raw, which splits the line for str.splitlines().
            _message("assistant", f"The failing case is {suite.failing}: {turn_text(rng, 'assistant')}"
                                  f"{rng.choice(UNESCAPED_BREAKS)}{said(rng, (3, 4))}")]


LONG_LINE_BYTES = 1_100_000  # above 1 MiB (1,048,576): longer than any plausible fixed line cap


def _long_text(rng: random.Random) -> str:
    """1.1 to 1.4 million characters of test output (a verbose suite, a long traceback; a
    later day injects whole files into user messages): in every draw one log line of more
    than 1 MiB, longer than any fixed-size read buffer or line limit a reader might use."""
    target = rng.randint(LONG_LINE_BYTES, 1_400_000)
    parts, size = [], 0
    while size < target:
        part = f"\n{rng.choice(ASCII_WORDS)}_{rng.randrange(10**6)} ... ok {said(rng, (2, 6))}"
        parts.append(part)
        size += len(part)
    return "".join(parts)


def _said_with_call(rng: random.Random) -> str:
    """What an assistant says along with its tool calls: often nothing at all ("")."""
    return "" if rng.random() < 0.4 else said(rng, (3, 6))


def _round2_bodies(rng: random.Random, suite: _Suite, used: set[str]) -> list[Event]:
    edit = {"path": f"{suite.module}.py", "old": "    return a / b",
            "new": f"    if b == 0:\n        raise ValueError({json.dumps(said(rng, (3, 5)), ensure_ascii=False)})"
                   "\n    return a / b"}
    ms = rng.randint(20, 900)
    return [_message("user", f"{rng.choice([p for p in FIX_PHRASES if p.isascii() or voice_now() != 'plain'])} {said(rng, (3, 5))}"),
            *_tool_round(rng, used, "edit_file", edit, f"{suite.failing} {said(rng, (3, 6))}",
                         f"edited {suite.module}.py: replaced 1 occurrence", rng.randint(0, 5)),
            # Models often ask for a tool and say nothing: an assistant message with empty content.
            *_tool_round(rng, used, "run_command", {"command": "python -m unittest -v"},
                         "", suite.output(rng, ms, fixed=True), ms),
            _usage(rng),
            _message("assistant", f"All {len(suite.cases)} tests pass now: {turn_text(rng, 'assistant')}")]


# ----------------------------------------------------------------------------- extra events

def error_body(rng: random.Random) -> Event:
    """An `error` event. Its `message` is a string: replay must not take it for a message."""
    return {"type": "error", "message": said(rng, (3, 8)), "where": rng.choice(("gateway", "tool", "agent"))}


def unknown_body(rng: random.Random) -> Event:
    """An event of a type no code knows yet. It carries a message-shaped field on purpose:
    only `type == "message"` rebuilds history or makes a fork point, not the field's presence."""
    kind = f"{rng.choice(('future', 'plan', 'checkpoint', 'memo', 'trace'))}_{rng.choice(('thing', 'update', 'v2', 'mark'))}"
    assert kind not in KNOWN_TYPES
    return {"type": kind, "detail": {"note": said(rng, (3, 6)), "count": rng.randint(0, 99)},
            "message": {"role": "user", "content": said(rng, (3, 6))}}


def _clean_slots(bodies: list[Event]) -> list[int]:
    """Indexes where an extra event may go without splitting a tool round: right after a
    message other than an assistant message with tool_calls (the end included)."""
    return [i for i in range(1, len(bodies) + 1) if bodies[i - 1]["type"] == "message"
            and not bodies[i - 1]["message"].get("tool_calls")]


def _insert(rng: random.Random, bodies: list[Event], body: Event, at: bool | int) -> None:
    """`at=True`: a random clean slot; an int: the seq the event takes (2..n+1; the first
    event stays the system message carrying the config)."""
    if at is False:
        return
    if at is True:
        index = rng.choice(_clean_slots(bodies))
    elif isinstance(at, int) and 2 <= at <= len(bodies) + 1:
        index = at - 1
    else:
        raise ValueError(f"an extra event goes at seq 2..{len(bodies) + 1}, not {at!r}")
    bodies.insert(index, body)


def _gap_ms(rng: random.Random, body: Event, later_user: bool) -> int:
    """Milliseconds between two events: a person typing, a tool running, or next to nothing."""
    if later_user:
        return rng.randint(2_000, 3_600_000)  # a new prompt, perhaps in a new process
    if body["type"] == "tool_end":
        return body["ms"] + rng.randint(0, 2)  # the tool ran for as long as its tool_end says
    return rng.choice((0, 0, 0, 1, 1, 2, 5, 40))


def _build(rng: random.Random, bodies: list[Event], *, error: bool | int, unknown: bool | int,
           compact: bool, shuffle_keys: bool, clock_back: bool = False) -> GeneratedLog:
    _insert(rng, bodies, error_body(rng), error)
    _insert(rng, bodies, unknown_body(rng), unknown)
    start = random_time(rng)
    sid = session_id(rng, start)
    when, users, events, lines = start, 0, [], []
    set_back = rng.randint(3, len(bodies)) if clock_back else None  # ts only: log order stays the order
    for seq, body in enumerate(bodies, start=1):
        is_user = body["type"] == "message" and body["message"]["role"] == "user"
        if seq > 1:
            gap = timedelta(milliseconds=_gap_ms(rng, body, is_user and users > 0))
            # At `set_back` the machine's clock was set back: this ts is before the last one.
            when += gap if seq != set_back else -timedelta(minutes=rng.randint(5, 180))
        users += is_user
        event = {"seq": seq, "ts": utc_ts(when), **copy.deepcopy(body)}  # seq, ts, type first, as written
        on_disk = dict(rng.sample(list(event.items()), len(event))) if shuffle_keys else event
        events.append(event)
        lines.append(encode(on_disk, compact=compact))
    return GeneratedLog(sid, lines, events, voice_now())


def round1_log(rng: random.Random, *, error: bool | int = False, unknown: bool | int = False,
               compact: bool = False, shuffle_keys: bool = False, clock_back: bool = False,
               repeat_turn: bool = False, retried_prompt: bool = False, empty_read: bool = False,
               long_output: bool = False, config: dict[str, Any] | None = None,
               next_round_started: bool = False, voice: str | None = None) -> GeneratedLog:
    """Round 1's shape: 8 events (system+config, user, a run_command round, usage, the
    answer naming the failing case), plus an `error` and/or an unknown-type event if asked
    (`True`: at a random clean slot; an int: that seq). The error goes in first, so an
    unknown event placed at or before it moves it down one. `shuffle_keys` varies key order.
    `clock_back`: the ts go back once (a clock set back), so ts order is not log order.
    `repeat_turn`: the user asks the same again and gets the same answer (11 events): the
    history holds equal messages, each of which replay must keep.
    `retried_prompt`: the model failed at once (an `error` event from the gateway) and the
    user sent the same prompt again (10 events): two equal user messages in a row, both kept.
    `empty_read`: a read_file round of an empty file first (12 events; its tool result
    and the assistant message asking for it both have content ""). `long_output`: the test
    output is 1.1-1.4 million characters, one line of more than 1 MiB (every draw). `config`:
    the model configuration the first event carries (default: the mock's). `next_round_started`:
    the user's next request ("fix it ...") follows the answer, and the model has asked for
    its first tool (usage, assistant with an edit_file call): 11 events, fork points 2, 8, 9.
    `voice`: how its messages speak (draws.VOICES; default: as `speaking` says, else mixed)."""
    if voice is not None:
        with speaking(voice):
            return round1_log(rng, error=error, unknown=unknown, compact=compact, shuffle_keys=shuffle_keys,
                              clock_back=clock_back, repeat_turn=repeat_turn, retried_prompt=retried_prompt,
                              empty_read=empty_read, long_output=long_output, config=config,
                              next_round_started=next_round_started)
    suite = _Suite.draw(rng)
    bodies = _round1_bodies(rng, suite, set(), empty_read=empty_read, long_output=long_output)
    if config is not None:
        bodies[0]["config"] = dict(config)
    if repeat_turn:
        bodies += [copy.deepcopy(bodies[1]), _usage(rng), copy.deepcopy(bodies[-1])]
    if retried_prompt:
        failed = {"type": "error", "message": said(rng, (3, 8)), "where": "gateway"}
        bodies[2:2] = [failed, copy.deepcopy(bodies[1])]
    if next_round_started:
        bodies += _round2_bodies(rng, suite, {call["id"] for body in bodies
                                              for call in (body.get("message") or {}).get("tool_calls") or []})[:3]
    return _build(rng, bodies, error=error, unknown=unknown, compact=compact, shuffle_keys=shuffle_keys,
                  clock_back=clock_back)


def two_round_log(rng: random.Random, *, error_between_rounds: bool = False, error: bool | int = False,
                  unknown: bool | int = False, compact: bool = False, shuffle_keys: bool = False,
                  voice: str | None = None) -> GeneratedLog:
    """Round 1, then a "fix it" round (edit_file, run_command): 19 events, fork points
    2, 8, 9, 19. `error_between_rounds` puts an `error` event at seq 9 (points move on).
    `voice`: how its messages speak (draws.VOICES; default: as `speaking` says, else mixed)."""
    if voice is not None:
        with speaking(voice):
            return two_round_log(rng, error_between_rounds=error_between_rounds, error=error, unknown=unknown,
                                 compact=compact, shuffle_keys=shuffle_keys)
    suite, used = _Suite.draw(rng), set()
    bodies = _round1_bodies(rng, suite, used)
    if error_between_rounds:
        bodies.append(error_body(rng))
    bodies += _round2_bodies(rng, suite, used)
    return _build(rng, bodies, error=error, unknown=unknown, compact=compact, shuffle_keys=shuffle_keys)


def fork_child(parent: GeneratedLog, at_seq: int, rng: random.Random) -> GeneratedLog:
    """What `fork parent at_seq` must make: the parent's lines with seq <= at_seq, byte for
    byte, then `{"type": "fork", "from": parent, "atSeq": at_seq}` as seq at_seq + 1.
    The child is made at least a second after the parent's last event, so its id sorts after."""
    if at_seq not in parent.fork_points:
        raise ValueError(f"seq {at_seq} is not a fork point of {parent.session_id}; "
                         f"fork points: {', '.join(map(str, parent.fork_points))}")
    keep = [i for i, e in enumerate(parent.events) if e["seq"] <= at_seq]
    when = parse_ts(parent.events[-1]["ts"]) + timedelta(seconds=rng.randint(1, 86_400),
                                                         milliseconds=rng.randrange(1000))
    fork = {"seq": at_seq + 1, "ts": utc_ts(when), "type": "fork", "from": parent.session_id, "atSeq": at_seq}
    return GeneratedLog(session_id(rng, when), [parent.lines[i] for i in keep] + [encode(fork)],
                        [copy.deepcopy(parent.events[i]) for i in keep] + [fork], parent.voice)


__all__ = [
    "Event", "GeneratedLog", "KNOWN_TYPES", "VOICES", "encode", "error_body", "fork_child", "mixed_text", "new_seed",
    "parse_ts", "random_time", "rng_for", "round1_log", "session_id", "speaking", "two_round_log", "unknown_body", "utc_ts",
]
