"""Day 11: a scripted model that keeps a plan, the steps it is given, and what a run of the
lab's agent shows of the plan (on screen, in the log, in the requests).

The fake model answers each request with the step of its script whose number is the count
of assistant messages the request already holds (a pure function of the messages, like the
mock): a todo call with the whole list, a read of a workspace file (an idle round), or a
text (which ends the turn). A todo call names each item the plan already has by the id the
tool's last accepted answer showed (the list as the lab renders it, `[x] ID. content`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from grader.checkkit.draws import mixed_text, plain_text, script_text
from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest
from grader.checkkit.replies import reply_stream
from grader.checkkit.sse import SSEStream
from grader.checkkit.turns import text_of

REMIND_AFTER = 3  # the sheet's N: idle rounds before the reminder
MARKS = {"pending": "[ ]", "in_progress": "[>]", "done": "[x]"}
PLAN_LINE = re.compile(r"^\s*\[(.)\] (\S+)\. (.*)$")
BREAKS = ("\n", "\r", "\u2028", "\u2029", "\x85", "\t")

VERBS = ("Read", "Check", "Fix", "Run", "Update", "Write", "Look at", "Rename", "Explain", "Test")
FILES = ("calc.py", "test_calc.py", "README.md", "setup.cfg", "src/parser.py", "docs/usage.md", "app/models.py")


def one_line(text: str) -> str:
    for ch in BREAKS:
        text = text.replace(ch, " ")
    return " ".join(text.split())


def step_texts(rng, n: int) -> list[str]:
    """`n` plan steps as a model writes them, in plain English, in one other script and mixed
    (one line each), no one a piece of another, so a message that names one names only it."""
    out: list[str] = []
    while len(out) < n:
        kind = len(out) % 3
        if kind == 0:
            text = f"{rng.choice(VERBS)} {rng.choice(FILES)}: {plain_text(rng, (3, 14)).rstrip('.!?')}"
        elif kind == 1:
            text = script_text(rng, (3, 10))
        else:
            text = one_line(f"{rng.choice(VERBS).lower()} {rng.choice(FILES)} {mixed_text(rng, (3, 9))}")
        text = one_line(text)
        if text and all(text not in other and other not in text for other in out):
            out.append(text)
    return out


@dataclass
class Step:
    """One reply of the scripted model: `todo` (items: [(content, status, known)]: known = the
    item is already in the plan and is named by its id), `read` (a workspace file) or `text`."""

    kind: str
    items: list[tuple[str, str, bool]] = field(default_factory=list)
    path: str = ""
    text: str = ""


def plan_shown(result: str) -> dict[str, str]:
    """content -> id, from a todo answer (the lab's rendering of the list)."""
    found = {}
    for line in result.splitlines():
        m = PLAN_LINE.match(line)
        if m:
            found[m.group(3)] = m.group(2)
    return found


def todo_answers(messages: list) -> list[str]:
    """The contents of every todo result in `messages`, in order."""
    names = {}
    for m in messages:
        if isinstance(m, dict):
            for call in m.get("tool_calls") or []:
                if isinstance(call, dict):
                    fn = call.get("function") or {}
                    names[call.get("id")] = fn.get("name") or call.get("name")
    return [text_of(m.get("content")) for m in messages
            if isinstance(m, dict) and m.get("role") == "tool" and names.get(m.get("tool_call_id")) == "todo"]


def known_ids(messages: list) -> dict[str, str]:
    """content -> id of the plan as the last accepted todo answer showed it."""
    for answer in reversed(todo_answers(messages)):
        if not answer.startswith("error"):
            return plan_shown(answer)
    return {}


def assistant_count(messages: list) -> int:
    return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


def streamed(text: str, call: tuple[str, str, dict] | None = None):
    """A streamed reply: `text`, then at most one tool call (id, name, arguments)."""
    stream = SSEStream().role()
    if text:
        stream.text(text)
    if call is None:
        return reply_stream(stream.finish().usage(100, 10).done())
    call_id, name, args = call
    stream.tool_calls([(call_id, name, json.dumps(args, ensure_ascii=False))], pieces=2)
    return reply_stream(stream.finish("tool_calls").usage(100, 20).done())


def scripted_model(steps: list[Step], tag: str):
    """A model that answers request k (k assistant messages already in it) with steps[k]
    (`steps` may grow between two processes of one session)."""
    def model(request: RecordedRequest):
        messages = request.messages
        k = assistant_count(messages)
        if k >= len(steps):
            return streamed("Done.")
        step = steps[k]
        call_id = f"call_{tag}_{k + 1}"
        if step.kind == "todo":
            ids = known_ids(messages)
            items = []
            for content, status, known in step.items:
                item = {"content": content, "status": status}
                if known and content in ids:
                    item = {"id": ids[content], **item}
                items.append(item)
            return streamed(step.text, (call_id, "todo", {"items": items}))
        if step.kind == "read":
            return streamed(step.text, (call_id, "read_file", {"path": step.path}))
        return streamed(step.text)
    return model


def server_for(steps: list[Step], tag: str) -> FakeModelServer:
    return FakeModelServer(model=scripted_model(steps, tag))


def is_open(items: list[tuple[str, str, bool]]) -> bool:
    return any(status != "done" for _, status, _ in items)


def expected_reminders(steps: list[Step], after: int = REMIND_AFTER) -> list[bool]:
    """For each request (one per step): must it carry a reminder? After `after` replies in a
    row without a todo call, while the last list sent is open; once per stretch."""
    want, last_todo, open_now = [], None, False
    for k, step in enumerate(steps):
        idle = None if last_todo is None else k - last_todo - 1
        want.append(idle == after and open_now)
        if step.kind == "todo":
            last_todo, open_now = k, is_open(step.items)
    return want


def plan_block_at(lines: list[str], start: int, items: list[tuple[str, str]]) -> int | None:
    """The index just after the first run of consecutive lines, at or after `start`, that shows
    `items` ((content, status)) in order, each line holding its mark and its text; else None."""
    if not items:
        return start
    for i in range(start, len(lines) - len(items) + 1):
        if all(MARKS[status] in lines[i + j] and lines[i + j].rstrip().endswith(content)
               for j, (content, status) in enumerate(items)):
            return i + len(items)
    return None


def request_messages(request: RecordedRequest) -> list:
    return [m for m in request.messages]


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)
