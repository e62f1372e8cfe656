"""A mock model: deterministic, and driven only by the messages it is given.

Its next reply is a pure function of the message list. That is the point: it has
no memory of its own, exactly like a real model, so if a resumed session did not
carry the history back in, the mock cannot cite the earlier finding - and a test
can tell.

It follows one short script (run the tests, then fix the failing case), plus
"read FILE" and a help reply for everything else. It streams text in a few chunks
and tool-call arguments in fragments, so the agent loop's merging is exercised.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Iterator

from .base import GatewayError, StreamDelta, ToolCallChunk, Usage, rough_tokens
from .chain import find_break

TEST_COMMAND = "python -m unittest -v"
BUGGY_LINE = "    return a / b"
GUARDED_LINE = (
    "    if b == 0:\n"
    '        raise ValueError("cannot divide by zero")\n'
    "    return a / b"
)
FAILED_CASE = re.compile(r"^(?:FAIL|ERROR): (\w+)", re.MULTILINE)
TESTS_RAN = re.compile(r"^Ran (\d+) tests?", re.MULTILINE)
HELP_TEXT = (
    "I am the mock model, so I follow a short script. Try "
    '"run the tests and tell me which case fails", then "fix it", or "read calc.py". '
    "Set MCA_API_KEY (and leave MOCK unset) to talk to a real model."
)


@dataclass(frozen=True)
class Reply:
    """What the mock decided to say: text, then tool calls as (id, name, args)."""

    text: str
    calls: list[tuple[str, str, dict]] = field(default_factory=list)


class MockGateway:
    """A Gateway whose reply depends only on the messages passed in."""

    def stream(self, messages: list[dict], tools: list[dict] | None = None) -> Iterator[StreamDelta]:
        broken = find_break(messages)
        if broken is not None:  # as a real API does: 400, and no use trying again
            raise GatewayError(f"HTTP 400: invalid history: {broken.problem}", retryable=False)
        reply = decide(messages)
        yield from stream_reply(reply, messages)


# --- deciding -------------------------------------------------------------------

def decide(messages: list[dict]) -> Reply:
    """Choose the next reply from the conversation so far."""
    start = last_user_index(messages)
    if start is None:
        return Reply(HELP_TEXT)
    earlier, turn = messages[:start], messages[start + 1:]
    request = str(messages[start].get("content", "")).strip().lower()
    next_id = f"call_{count_tool_calls(messages) + 1}"
    if "run the tests" in request:
        return run_tests_reply(turn, next_id)
    if request.rstrip(".! ") == "fix it":
        return fix_reply(earlier, turn, next_id)
    if request.startswith("read "):
        return read_reply(request[5:].strip(), turn, next_id)
    return Reply(HELP_TEXT)


def run_tests_reply(turn: list[dict], next_id: str) -> Reply:
    """Round 1 of the script: run the suite, then name the failing case."""
    result = last_tool_result(turn)
    if result is None:
        return Reply("I will run the test suite first.", [(next_id, "run_command", {"command": TEST_COMMAND})])
    if is_refusal(result):
        return Reply(f"I could not run the tests: {first_line(result)}")
    failing = failing_cases(result)
    if failing:
        reason = failure_reason(result)
        return Reply(f"The failing case is {failing[0]}" + (f" ({reason})." if reason else ".")
                     + (f" Also failing: {', '.join(failing[1:])}." if failing[1:] else ""))
    return Reply(f"All {tests_ran(result)} tests pass; nothing fails.")


def fix_reply(earlier: list[dict], turn: list[dict], next_id: str) -> Reply:
    """Round 2 of the script: fix the case an earlier run found, then re-run the suite."""
    last_run = last_test_output(earlier)
    if last_run is None:
        return Reply("I have no record of an earlier test run in this conversation, so I do not "
                     "know what to fix. Ask me to run the tests first.")
    failing = failing_cases(last_run)
    if not failing:
        return Reply("The last test run passed, so there is nothing to fix.")
    case = failing[0]
    if case != "test_divide_by_zero":
        return Reply(f"The earlier run showed {case} failing. I only know how to fix "
                     "test_divide_by_zero, so I am leaving the code as it is.")
    name, result = last_tool_call_and_result(turn)
    if result is None:
        edit = {"path": "calc.py", "old": BUGGY_LINE, "new": GUARDED_LINE}
        return Reply(f"The earlier run showed {case} failing: divide() lets a zero divisor through. "
                     "I will make it raise ValueError instead.", [(next_id, "edit_file", edit)])
    if is_refusal(result):
        return Reply(f"I could not finish the fix: {first_line(result)}")
    if name == "edit_file":
        return Reply("calc.py is edited; I will run the tests again.",
                     [(next_id, "run_command", {"command": TEST_COMMAND})])
    still = failing_cases(result)
    if still:
        return Reply(f"The tests still fail: {', '.join(still)}.")
    return Reply(f"All {tests_ran(result)} tests pass now: divide() raises ValueError for a zero divisor.")


def read_reply(path: str, turn: list[dict], next_id: str) -> Reply:
    """Read a file with the read_file tool, then say what it defines."""
    result = last_tool_result(turn)
    if result is None:
        return Reply(f"I will read {path}.", [(next_id, "read_file", {"path": path})])
    if is_refusal(result):
        return Reply(f"I could not read {path}: {first_line(result)}")
    names = re.findall(r"^(?:def|class) (\w+)", result, re.MULTILINE)
    defines = f" and defines {', '.join(names)}" if names else ""
    return Reply(f"{path} has {len(result.splitlines())} lines{defines}.")


# --- reading the history --------------------------------------------------------

def last_user_index(messages: list[dict]) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            return index
    return None


def count_tool_calls(messages: list[dict]) -> int:
    """How many tool calls the history holds: gives deterministic ids call_1, call_2..."""
    return sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")


def last_tool_result(turn: list[dict]) -> str | None:
    return last_tool_call_and_result(turn)[1]


def last_tool_call_and_result(turn: list[dict]) -> tuple[str | None, str | None]:
    """The name and result of the latest tool call in this turn, if any."""
    names = {call["id"]: call["name"] for m in turn for call in m.get("tool_calls") or []}
    for message in reversed(turn):
        if message.get("role") == "tool":
            return names.get(message.get("tool_call_id")), str(message.get("content", ""))
    return None, None


def last_test_output(messages: list[dict]) -> str | None:
    """The most recent tool result that looks like unittest output."""
    for message in reversed(messages):
        content = str(message.get("content", ""))
        if message.get("role") == "tool" and TESTS_RAN.search(content):
            return content
    return None


def failing_cases(output: str) -> list[str]:
    """Test names from unittest's FAIL:/ERROR: lines, in order, without repeats."""
    return list(dict.fromkeys(FAILED_CASE.findall(output)))


def failure_reason(output: str) -> str:
    """The first exception line of the first failure, e.g. 'ZeroDivisionError: division by zero'."""
    match = re.search(r"^(\w+(?:Error|Exception): .*)$", output, re.MULTILINE)
    return match.group(1) if match else ""


def tests_ran(output: str) -> str:
    match = TESTS_RAN.search(output)
    return match.group(1) if match else "the"


def is_refusal(result: str) -> bool:
    """Tool results that start like this mean the tool did not do its job."""
    return result.startswith(("error:", "denied:", "blocked:"))


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


# --- streaming ------------------------------------------------------------------

def stream_reply(reply: Reply, messages: list[dict]) -> Iterator[StreamDelta]:
    """Stream a Reply the way a real provider would: text chunks, call fragments, usage."""
    for piece in split_text(reply.text, 3):
        yield StreamDelta(text=piece)
    for index, (call_id, name, args) in enumerate(reply.calls):
        yield StreamDelta(tool_call=ToolCallChunk(index, id=call_id, name=name))
        for fragment in split_text(json.dumps(args), 3):
            yield StreamDelta(tool_call=ToolCallChunk(index, args=fragment))
    yield StreamDelta(usage=estimate_usage(reply, messages))
    yield StreamDelta(finish="tool_calls" if reply.calls else "stop")


def split_text(text: str, parts: int) -> list[str]:
    """Cut text into at most ``parts`` pieces that join back to exactly ``text``."""
    if not text:
        return []
    size = -(-len(text) // parts)  # ceiling division
    return [text[i:i + size] for i in range(0, len(text), size)]


def estimate_usage(reply: Reply, messages: list[dict]) -> Usage:
    """Deterministic token counts from message sizes (a mock has no real tokenizer)."""
    sent = sum(rough_tokens(message_text(m)) for m in messages)
    said = rough_tokens(reply.text + "".join(json.dumps(args) for _, _, args in reply.calls))
    return Usage(input_tokens=sent, output_tokens=said)


def message_text(message: dict) -> str:
    calls = message.get("tool_calls") or []
    return str(message.get("content", "")) + "".join(json.dumps(c.get("args", {})) for c in calls)
