"""Day 04: running the harnesses and reading what they report.

Every call of a tool goes through the lab's ToolRegistry in a harness child
(harnesses/tool_calls.py), so a check sees exactly what the model would read: a
result, or an exception that would have crashed the turn. Files are judged here, in
the grader, before and after.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from grader.checkkit import CheckFailed, ChildResult
from grader.checkkit.failures import short
from grader.checkkit.messages import Messages


def harness_answer(ctx, name: str, job: dict, label: str, timeout: float = 10,
                   script: Path | None = None) -> tuple[dict, ChildResult]:
    """Run harnesses/<name>.py (or `script`, written before) on `job`; the last JSON object it
    printed as its own. The same script and label run again is one reproduce line."""
    script = script or ctx.harness(name)
    path = script.parent / f"{label}.json"
    path.write_text(json.dumps(job, ensure_ascii=False), encoding="utf-8")
    result = ctx.run_harness(script, str(path), timeout=timeout)
    found = None
    for line in result.stdout.split("\n"):  # not splitlines(): the lab's own prints may hold U+2028
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("harness") == name:
            found = value
    if found is None:
        raise CheckFailed(ctx.say("harness.died", what=label), seen=ctx.evidence(result))
    if "stub" in found:
        raise CheckFailed(ctx.say("harness.stub", stub=found["stub"], where=found.get("where")))
    if "raised" in found:
        raise CheckFailed(ctx.say("harness.import", error=found["raised"], where=found.get("where")))
    return found, result


def tool_calls(ctx, label: str, workdir: Path, calls: list, *, timeout: float = 10, umask: int | None = None,
               watch: Path | None = None, deadline: float | None = None) -> list[dict]:
    """Make `calls` ([name, args] pairs) through the lab's registry; one result per call.
    A call still running after `deadline` seconds is {"hung": deadline} and the last one."""
    deadline = deadline or timeout + 5
    job = {"workdir": str(workdir), "timeout": timeout, "umask": umask, "calls": calls,
           "watch": str(watch) if watch else None, "deadline": deadline}
    answer, result = harness_answer(ctx, "tool_calls", job, label, timeout=deadline * len(calls) + 10)
    results = answer.get("results") or []
    if results and "hung" in results[-1]:
        results += [{"hung": deadline}] * (len(calls) - len(results))
    if len(results) != len(calls):
        raise CheckFailed(ctx.say("harness.died", what=label), seen=ctx.evidence(result))
    return results


def stub_in(ctx, entry: dict, tool: str) -> None:
    """A stub, a call that never came back, or an exception out of the registry fails the
    check, naming the tool."""
    if "hung" in entry:
        raise CheckFailed(ctx.say("tool.hung", tool=tool, seconds=entry["hung"]))
    if "stub" in entry:
        raise CheckFailed(ctx.say("harness.stub", stub=entry["stub"], where=entry.get("where")))
    if "raised" in entry:
        raise CheckFailed(ctx.say("tool.raised", tool=tool, error=entry["raised"], where=entry.get("where")))


def refused(entry: dict) -> bool:
    """The tool said no: its result is not ok (a ToolError, through the registry, in any words), or
    what the model reads starts with `error`."""
    return "content" in entry and (entry.get("ok") is False or entry["content"].lstrip().lower().startswith("error"))


def said(entry: dict) -> str:
    """What a call gave back, for a message."""
    if "content" in entry:
        return short(" | ".join(entry["content"].splitlines())
                     or Messages.for_day(Path(__file__).parent)("brief.empty_result"), 200)
    return short(entry.get("raised") or entry.get("stub") or "?", 200)


# --------------------------------------------------------------------------- files

@dataclass(frozen=True)
class Stamp:
    """A file as the check last saw it: not written at all means the same inode, mtime and bytes."""

    inode: int
    mtime_ns: int
    size: int
    sha: str

    @classmethod
    def of(cls, path: Path) -> "Stamp | None":
        try:
            st = os.lstat(path)
            data = path.read_bytes() if not os.path.islink(path) else os.readlink(path).encode()
        except OSError:
            return None
        return cls(st.st_ino, st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


def tree(root: Path) -> dict[str, Stamp | None]:
    """Every entry under `root` (links not followed), by relative path."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            found[path.relative_to(root).as_posix()] = Stamp.of(path) if not path.is_dir() or path.is_symlink() \
                else None
    return found


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def read_text(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
