"""Compaction: the context has a budget, and what is older is summarised.

Every request sends the whole history again, so a long session grows until the model
cannot take it (or every request costs a fortune). Compaction replaces the oldest part
with a summary the model writes, and keeps the rest as it was:

    [system prompt, instructions, memory]  [older rounds ...]  [last K rounds]
     kept as they are, never summarised      -> one summary     kept verbatim

* **The size** of a message list is day 8's estimate (``mca.refs.bill.estimate_tokens``)
  of each message's text, added up (``context_tokens``). A message's text is its
  content (the text parts of a list) and, for each tool call, its name and its
  arguments as JSON.
* **The prefix**: the system messages the history starts with (the system prompt,
  day 9's instructions, day 10's memory). They are never summarised or dropped.
* **A round** is one user message and everything that answers it: the model's
  replies, every tool call and every tool result, up to the next user message. The
  history is cut only where a round starts, so a tool call is never separated from
  its result (a history that is, no API accepts).
* **The summary** is asked of the model in a request of its own (no tools offered):
  a system message saying what a summary is for, and one user message holding the
  older rounds as a transcript - nothing of the prefix, nothing of the kept rounds.
  It comes back into the history as one user message (``SUMMARY_HEADER`` + the
  model's text), right after the prefix.
* **Not worth it**: nothing older than the last K rounds, an empty summary, or a
  history the summary would not make smaller (by the size above) - then nothing
  changes, and the caller says why.

When (mca/chat.py): before each turn, if the history as it stands (what the next
request sends again, before the new message) is over ``COMPACT_AT`` tokens, and on
``/compact`` whatever its size. ``$MCA_COMPACT_AT`` and ``$MCA_KEEP_ROUNDS`` change the
two numbers.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from ..gateway.base import Gateway
from ..refs.bill import estimate_tokens

COMPACT_AT = 6000   # tokens (day 8's estimate) of history before a turn, over which it is compacted
KEEP_ROUNDS = 2     # the last rounds kept verbatim

SUMMARY_HEADER = "[summary of the earlier conversation, written when it was compacted]\n"
SUMMARY_PROMPT = (
    "You write the handoff summary of a conversation between a user and a coding agent. "
    "The agent continues from your summary alone: keep what the user asked for, what was "
    "found and decided, the files and commands that matter, and what is still to do. "
    "Be brief and plain; do not invent anything."
)
SUMMARY_ASK = "Summarise this part of a conversation for the assistant that continues it:"


def setting(name: str, default: int, env: dict | None = None) -> int:
    """A whole number from the environment (``$MCA_COMPACT_AT``, ``$MCA_KEEP_ROUNDS``), else ``default``."""
    value = (os.environ if env is None else env).get(name, "").strip()
    return int(value) if value.isdigit() else default


def message_text(message: dict) -> str:
    """What of a message is counted: its content's text, then each call's name and arguments."""
    content = message.get("content")
    if isinstance(content, list):  # day 8: text parts and image parts
        text = "".join(str(part.get("text", "")) for part in content
                       if isinstance(part, dict) and part.get("type") == "text")
    else:
        text = str(content or "")
    for call in message.get("tool_calls") or []:
        text += str(call.get("name", "")) + json.dumps(call.get("args", {}), ensure_ascii=False)
    return text


def context_tokens(messages: list[dict]) -> int:
    """The size of a message list: day 8's estimate of each message's text, added up."""
    return sum(estimate_tokens(message_text(message)) for message in messages)


def prefix_end(history: list[dict]) -> int:
    """How many system messages the history starts with (never summarised, never dropped)."""
    end = 0
    while end < len(history) and history[end].get("role") == "system":
        end += 1
    return end


def round_starts(history: list[dict]) -> list[int]:
    """The index of every user message after the prefix: where a round starts."""
    return [i for i in range(prefix_end(history), len(history)) if history[i].get("role") == "user"]


def choose_cut(history: list[dict], keep: int = KEEP_ROUNDS) -> int | None:
    """Where the history is cut: ``history[prefix_end:cut]`` is summarised and
    ``history[cut:]`` (the last ``keep`` rounds) is kept. None: nothing older to summarise."""
    starts = round_starts(history)
    if len(starts) <= keep:
        return None  # every round is one of the last `keep`: nothing older
    return starts[len(starts) - keep] if keep > 0 else len(history)


def transcript(messages: list[dict]) -> str:
    """The messages as lines a model can read: who said what, which tools were called."""
    lines = []
    for message in messages:
        role = message.get("role", "?")
        content = message_text({"content": message.get("content")})
        if role == "tool":
            lines.append(f"tool result ({message.get('tool_call_id')}): {content}")
            continue
        if content or not message.get("tool_calls"):
            lines.append(f"{role}: {content}")
        for call in message.get("tool_calls") or []:
            lines.append(f"{role} calls {call.get('name')} "
                         f"{json.dumps(call.get('args', {}), ensure_ascii=False)} ({call.get('id')})")
    return "\n".join(lines)


def summary_request(older: list[dict]) -> list[dict]:
    """The messages of the summary request: what a summary is for, then the older rounds."""
    return [{"role": "system", "content": SUMMARY_PROMPT},
            {"role": "user", "content": SUMMARY_ASK + "\n\n" + transcript(older)}]


def ask_for_summary(gateway: Gateway, messages: list[dict]) -> str:
    """The model's text for ``messages``, streamed and joined; no tools are offered."""
    return "".join(delta.text for delta in gateway.stream(messages, None) if delta.text).strip()


@dataclass
class Compaction:
    """What compact() did: the new history and its size, or why it left the history alone."""

    history: list[dict]        # the new history (the one it was given, when nothing was done)
    before: int                # tokens, by context_tokens
    after: int
    summary: str | None = None  # the summary message's content (None: not compacted)
    summarised: int = 0        # how many messages the summary replaces
    kept: int = 0              # how many messages after the summary were kept as they were
    skipped: str = ""          # why nothing was done


def compact(history: list[dict], gateway: Gateway, keep: int = KEEP_ROUNDS) -> Compaction:
    """The history with its older rounds replaced by one summary the model writes: the
    prefix and the last ``keep`` rounds as they were. The history itself is not changed."""
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped=f"nothing older than the last {keep} round(s) to summarise")
    start = prefix_end(history)
    text = ask_for_summary(gateway, summary_request(history[start:cut]))
    if not text:
        return Compaction(history, before, before, skipped="the model returned an empty summary")
    summary = SUMMARY_HEADER + text
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    after = context_tokens(new)
    if after >= before:
        return Compaction(history, before, before,
                          skipped=f"the summary would not make the context smaller (≈ {before} -> {after} tokens)")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)


def bill_line(result: Compaction, upto_seq: int) -> str:
    """The one line that accounts for the summary, as every injection is accounted for."""
    summary = result.summary or ""
    return (f"compacted: {result.summarised} messages up to seq {upto_seq} into a summary of {len(summary)} chars "
            f"≈ {estimate_tokens(summary)} tokens; context ≈ {result.before} -> {result.after} tokens")


def bill_event(result: Compaction, upto_seq: int) -> dict:
    """The fields of the ``compacted`` event: the same figures, and the summary itself."""
    summary = result.summary or ""
    return {"upto_seq": upto_seq, "summary": summary, "messages": result.summarised, "kept": result.kept,
            "chars": len(summary), "tokens": estimate_tokens(summary), "before": result.before,
            "after": result.after}
