"""Day 03: the lab's tools called one by one in a child (harnesses/tools.py), and what came back."""

from __future__ import annotations

from pathlib import Path


def run_ops(ctx, label: str, workdir: Path, ops: list[dict]) -> list[dict]:
    """One answer per op, in order; a child that dies before the last one fails the check."""
    # from a directory of its own: paths are the workdir's, not the cwd's
    return ctx.harness_answers("tools", {"workdir": str(workdir), "ops": ops}, count=len(ops),
                               calls=ctx.say("harness.tools", label=label), label="job")


def call_op(call_id: str, name: str, args: object = None, raw: str | None = None) -> dict:
    op = {"op": "call", "id": call_id, "name": name}
    if raw is not None:
        op["raw"] = raw
    else:
        op["args"] = args
    return op


def broke(answer: dict) -> str | None:
    """The stub or exception an answer reports, with where it came from, else None."""
    if "stub" in answer or "raised" in answer:
        return f"{answer.get('stub') or answer.get('raised')} ({answer.get('where')})"
    return None


def tool_message(answer: dict, say) -> tuple[dict | None, str]:
    """The one tool message run_call added, and a word on what is wrong with the history otherwise."""
    messages = answer.get("messages")
    if not isinstance(messages, list) or len(messages) != 1 or not isinstance(messages[0], dict):
        return None, say("brief.messages", count=len(messages)) if isinstance(messages, list) else say("brief.no_messages")
    return messages[0], ""


def write_files(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
