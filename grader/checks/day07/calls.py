"""Day 07: calling the lab's session functions through a harness, on generated logs.

Every log a check reads is generated for this run from `ctx.rng(...)` (grader/checkkit/
loggen.py and logdamage.py): random ids, times and text mixing ASCII, CJK and emoji.
The harness (harnesses/session_functions.py) calls one function per input, so a
mistake in replay cannot show up in a check of the reader, and the other way round.
"""

from __future__ import annotations

from pathlib import Path

from grader.checkkit.harnesskit import digest_long  # noqa: F401  (the harness side's own, for the checks)
from grader.checkkit.sessionlog import logs_in


def rows(events: list[dict]) -> list[list]:
    """Generated events as the harness takes them: [seq, ts, type, fields]."""
    return [[e["seq"], e["ts"], e["type"], {k: v for k, v in e.items() if k not in ("seq", "ts", "type")}]
            for e in events]


def fields_of(event: dict) -> dict:
    return {k: v for k, v in event.items() if k not in ("seq", "ts", "type")}


def call(ctx, function: str, inputs: list, name: str) -> list[dict]:
    """One harness child calling `function` on each input; its answers, in order (a stub or
    an exception among them is said with its input: `ctx.harness_problem(answer, f"{function}()", on)`)."""
    return ctx.harness_answers("session_functions", {"function": function, "inputs": inputs}, count=len(inputs),
                               calls=f"{function}()", label=name)


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
