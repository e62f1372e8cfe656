"""Day 07: calling the lab's session functions through a harness, on generated logs.

Every log a check reads is generated for this run from `ctx.rng(...)` (grader/checkkit/
loggen.py and logdamage.py): random ids, times and text mixing ASCII, CJK and emoji.
The harness (harnesses/session_functions.py) calls one function per input, so a
mistake in replay cannot show up in a check of the reader, and the other way round.
"""

from __future__ import annotations

import json
from pathlib import Path

from grader.checkkit import CheckFailed
from grader.checkkit.sessionlog import logs_in


def rows(events: list[dict]) -> list[list]:
    """Generated events as the harness takes them: [seq, ts, type, fields]."""
    return [[e["seq"], e["ts"], e["type"], {k: v for k, v in e.items() if k not in ("seq", "ts", "type")}]
            for e in events]


def fields_of(event: dict) -> dict:
    return {k: v for k, v in event.items() if k not in ("seq", "ts", "type")}


def call(ctx, function: str, inputs: list, name: str) -> list[dict]:
    """One harness child calling `function` on each input; its answers, in order."""
    script = ctx.harness("session_functions")
    job = script.parent / f"{name}.json"
    job.write_text(json.dumps({"function": function, "inputs": inputs}, ensure_ascii=False), encoding="utf-8")
    result = ctx.run_harness(script, str(job))
    answers = []
    for line in result.stdout.split("\n"):  # not splitlines(): U+2028 in a message is not a line break
        try:
            answers.append(json.loads(line))
        except ValueError:
            continue  # the lab's own prints
    if len(answers) != len(inputs):
        raise CheckFailed(ctx.say("harness.died", function=function, done=len(answers), total=len(inputs)),
                          seen=ctx.evidence(result))
    return answers


def failed_call(say, function: str, answer: dict, on: str) -> CheckFailed | None:
    """A CheckFailed for an answer that is a stub or an exception, naming the input it got."""
    if "stub" in answer:
        return CheckFailed(say("harness.stub", function=function, stub=answer["stub"]))
    if "raised" in answer:
        return CheckFailed(say("harness.raised", function=function, error=answer["raised"],
                               where=answer.get("where"), on=on))
    return None


def odd_value(value) -> str | None:
    """`a set {2, 8}` for a value the harness could only give as its repr, else None."""
    if isinstance(value, dict) and set(value) == {"repr", "type"}:
        return f"a {value['type']} {value['repr']}"
    return None


def inspect(ctx, root: Path, session_id: str) -> dict:
    """`python -m mca log inspect ID --json` run in `root` (logs in root/.sessions)."""
    return ctx.json_of(ctx.run_agent("log", "inspect", session_id, "--json", cwd=root, timeout=10))


def scratch_with(ctx, purpose: str, *logs) -> Path:
    """A scratch dir named after `purpose` holding `.sessions/` with the given logs
    (GeneratedLog or Damaged). Run `python -m mca log inspect ID` there by hand."""
    root = ctx.tmp(purpose)
    for log in logs:
        log.write(root / ".sessions")
    return root


def new_logs(root: Path, old: set[Path]) -> list[Path]:
    return [p for p in logs_in(root) if p not in old]


# The same function as in harnesses/session_functions.py (a test holds the two to one text).
def digest_long(value, limit=100_000):
    """`value` with every string longer than `limit` characters replaced by its sha256 and
    length: an answer holding a line of more than 1 MiB stays under the output cap, and is
    judged as exactly (the same digest is made of what the answer should be)."""
    if isinstance(value, str) and len(value) > limit:
        import hashlib
        return {"sha256": hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest(), "chars": len(value)}
    if isinstance(value, list):
        return [digest_long(item, limit) for item in value]
    if isinstance(value, dict):
        return {key: digest_long(item, limit) for key, item in value.items()}
    return value
