"""Reading what a lab's child left behind, as a student can act on it.

exercism's lesson: a traceback is not feedback. `evidence` turns a failed child
into one line: its own "not implemented yet" note, or the exception and the lab
file and line it came from, or else the quoted end of its output.
"""

from __future__ import annotations

import json
import re

from grader.checkkit.failures import CheckFailed
from grader.spawn import ChildResult


def evidence(result: ChildResult, say, package: str) -> str:
    """One line about what a failed child left."""
    for line in (result.stderr + "\n" + result.stdout).splitlines():
        if "not implemented yet" in line:
            return say("child.not_implemented", line=line.strip())
    # stderr; or, for a child on a pseudo-terminal, the screen, where stderr is too
    for stream in (result.stderr, result.stdout if not result.stderr else ""):
        lines = [line for line in stream.splitlines() if line.strip()]
        if any(line.startswith("Traceback") for line in lines):
            places = [line.strip() for line in lines if line.lstrip().startswith('File "')]
            # `File "/tmp/.../lab/mca/session/replay.py", line 31, in replay` -> `mca/session/replay.py, line 31, ...`
            pattern = r'^File "(?:[^"]*?/)?(' + re.escape(package) + r'/[^"]*|[^"/]*)"'
            where = re.sub(pattern, r"\1", places[-1]) if places else "?"
            return say("child.raised", error=lines[-1].strip(), where=where)
    tail = result.stderr_tail(6).strip() or result.stdout.strip()[-300:]
    # Quoted, never shown bare: a lab could print text that looks like the grader's own report.
    return say("child.printed", output=" | ".join(tail.splitlines())) if tail else say("child.no_output")


def expect_exit(result: ChildResult, say, package: str, code: int = 0, message: str | None = None) -> None:
    """Raise CheckFailed unless the child exited with `code`; the evidence is what it left."""
    if result.returncode != code:
        raise CheckFailed(message or say("child.crashed", command=result.short_command(), status=result.returncode),
                          expected=say("child.exit_status", code=code), seen=evidence(result, say, package))


def last_json_object(result: ChildResult, say) -> dict:
    """The JSON object a child printed (its whole stdout, or its last line that is one)."""
    text = result.stdout.strip()
    for candidate in (text, *reversed(text.splitlines())):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise CheckFailed(say("child.no_json", command=result.short_command()), seen=result.stdout[-300:])


def said(result: ChildResult) -> str:
    """Everything a child printed, on one line (stderr first): for "does it say X" checks."""
    return " ".join((result.stderr + " " + result.stdout).split())
