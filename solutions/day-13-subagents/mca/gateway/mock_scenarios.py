"""The mock model's script: what it understands, one scenario per lesson.

This is data for the mock, not part of the agent, and no lab asks you to change it:
skip it unless you want to know why the mock said what it said. The mock (mock.py)
looks at the user's last line and answers with the first row of SCENARIOS (below)
that matches it; anything else gets HELP_TEXT. Each reply is still a pure function of
the messages: a scenario reads the tool results and earlier messages it is given.

What it understands:
* "my name is Ada" / "what is my name?" - remembering needs the history;
* "read FILE" - asks for read_file (day 3 runs it), then says what the file holds;
* "what does divide do" - reads calc.py and quotes the divide function;
* "compare calc.py and test_calc.py" - two calls in one reply;
* "keep looking" - lists the directory again and again (the round cap stops it);
* "try broken calls" - calls with bad arguments and an unknown tool;
* "run the tests and fix the failing case" - runs the suite, edits calc.py, runs it again;
* "delete the build dir" - asks to run ``rm -rf build`` (the default rules deny it);
* "read config.py" - the file is missing: it reads the error, lists the dir, reads calc.py;
* "check again and again" - repeats one call until the loop guard blocks it;
* "run the tests and tell me which case fails", then "fix it" - the two rounds of day 7.
* "what is in @calc.py?" (any message with @-references) - answers from what was injected, without a tool;
  "what did I attach?" - the last line of the first injected block in the history (as sent, not as the file is now).
* "what are the project rules?" - names each instruction file in the system messages and quotes its first line.
* "remember that TEXT" (or "remember for this project that TEXT") - calls remember with TEXT, then says
  what the tool answered; "what do you remember?" - the memory lines recalled into this session.
* "plan the fix" - makes a plan with the todo tool, reads for three rounds without touching it, updates it
  (sooner if a plan reminder came), then says what is next; "try a bad plan" - sends two items in progress
  and says what the tool answered; "what is next?" - the next open item of the latest plan in the history.
* a summary request ("Summarise this part of a conversation ...", what compaction sends) - a short
  summary made from the transcript alone: how many messages, what the user asked, which tools ran,
  the last answer. "what was summarised?" - quotes the summary the history holds.
* "ask a subagent: REQUEST" (or "ask a subagent to REQUEST") - hands REQUEST to a subagent with the task
  tool, then passes on its answer; the subagent's mock answers REQUEST from its own fresh context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

HELP_TEXT = (
    "I am the mock model, so I follow a short script. "
    'Try "my name is Ada", then "ask a subagent: what is my name?", "ask a subagent: what does divide do", '
    'or "ask a subagent to run the tests and fix the failing case". '
    "Set MCA_API_KEY (and leave MOCK unset) to talk to a real model."
)
NAME = re.compile(r"\bmy name is ([^\s.,!?]+)", re.IGNORECASE)
TEST_COMMAND = "python -m unittest -v"
BUGGY_LINE = "    return a / b"
GUARDED_LINE = (
    "    if b == 0:\n"
    '        raise ValueError("cannot divide by zero")\n'
    "    return a / b"
)
FAILED_CASE = re.compile(r"^(?:FAIL|ERROR): (\w+)", re.MULTILINE)
TESTS_RAN = re.compile(r"^Ran (\d+) tests?", re.MULTILINE)


@dataclass(frozen=True)
class Reply:
    """What the mock decided to say: text, then tool calls as (id, name, args)."""

    text: str
    calls: list[tuple[str, str, dict]] = field(default_factory=list)


@dataclass(frozen=True)
class Conversation:
    """The messages as a scenario reads them, around the user's last line."""

    said: str             # the user's last line, without white space at its ends
    earlier: list[dict]   # the messages before it
    turn: list[dict]      # the messages after it: this turn's calls and results
    next_id: str          # the id of a new call: call_1, call_2, ... counted over the whole history

    @property
    def request(self) -> str:
        return self.said.lower()

    @classmethod
    def of(cls, messages: list[dict]) -> "Conversation | None":
        start = last_user_index(messages)
        if start is None:
            return None
        said = content_text(messages[start]).strip()
        return cls(said, messages[:start], messages[start + 1:], f"call_{count_tool_calls(messages) + 1}")


# The script: (does this row match?, the reply), tried in order; the first match answers.
SCENARIOS: list[tuple[Callable[[Conversation], object], Callable[[Conversation], Reply]]] = [
    (lambda c: DELEGATE.match(c.said), lambda c: delegate_reply(DELEGATE.match(c.said).group(1), c.turn, c.next_id)),
    (lambda c: c.said.startswith(SUMMARY_ASK), lambda c: summary_reply(c.said)),
    (lambda c: "what was summarised" in c.request, lambda c: summarised_reply(c.earlier)),
    (lambda c: "plan the fix" in c.request, lambda c: plan_fix_reply(c.turn, c.next_id)),
    (lambda c: "try a bad plan" in c.request, lambda c: bad_plan_reply(c.turn, c.next_id)),
    (lambda c: "what is next" in c.request, lambda c: next_step_reply(c.earlier)),
    (lambda c: "project rules" in c.request, lambda c: rules_reply(c.earlier)),
    (lambda c: REMEMBER.match(c.said), lambda c: remember_reply(REMEMBER.match(c.said), c.turn, c.next_id)),
    (lambda c: "what do you remember" in c.request, lambda c: recalled_reply(c.earlier)),
    (lambda c: INJECTED.search(c.said), lambda c: attached_reply(c.said, INJECTED.findall(c.said))),
    (lambda c: "what did i attach" in c.request, lambda c: attached_before(c.earlier)),
    (lambda c: NAME.search(c.said), lambda c: Reply(f"Nice to meet you, {NAME.search(c.said).group(1)}.")),
    (lambda c: "what is my name" in c.request, lambda c: name_reply(c.earlier)),
    (lambda c: "run the tests" in c.request and "fix" not in c.request, lambda c: run_tests_reply(c.turn, c.next_id)),
    (lambda c: c.request.rstrip(".! ") == "fix it", lambda c: fix_reply(c.earlier, c.turn, c.next_id)),
    (lambda c: "run the tests" in c.request and "fix" in c.request, lambda c: test_and_fix_reply(c.turn, c.next_id)),
    (lambda c: "delete the build dir" in c.request, lambda c: delete_build_reply(c.turn, c.next_id)),
    (lambda c: "read config.py" in c.request, lambda c: missing_file_reply(c.turn, c.next_id)),
    (lambda c: "again and again" in c.request, lambda c: repeat_reply(c.turn, c.next_id)),
    (lambda c: "what does divide do" in c.request, lambda c: divide_reply(c.turn, c.next_id)),
    (lambda c: c.request.startswith("compare "),
     lambda c: compare_reply(c.said[len("compare "):], c.turn, c.next_id)),
    (lambda c: "keep looking" in c.request,
     lambda c: Reply("Let me look once more.", [(c.next_id, "list_dir", {"path": "."})])),
    (lambda c: "try broken calls" in c.request, lambda c: broken_calls_reply(c.turn, c.next_id)),
    (lambda c: c.request.startswith("read "), lambda c: read_reply(c.said[5:].strip(), c.turn, c.next_id)),
]


def name_reply(earlier: list[dict]) -> Reply:
    """Day 1's lesson: the name is only known if the history carries it back in."""
    for message in reversed(earlier):
        named = NAME.search(str(message.get("content", ""))) if message.get("role") == "user" else None
        if named:
            return Reply(f"Your name is {named.group(1)}.")
    return Reply("I have no record of your name in this conversation.")


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


def divide_reply(turn: list[dict], next_id: str) -> Reply:
    """Read calc.py, then quote the divide function as it is in the file."""
    result = last_tool_result(turn)
    if result is None:
        return Reply("I will read calc.py.", [(next_id, "read_file", {"path": "calc.py"})])
    if is_refusal(result):
        return Reply(f"I could not read calc.py: {first_line(result)}")
    lines = result.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("def divide")), None)
    if start is None:
        return Reply("calc.py has no divide function.")
    body = [line.strip() for line in lines[start + 1:] if line.startswith((" ", "\t")) and line.strip()]
    last = body[-1] if body else "(nothing)"
    return Reply(f"divide is `{lines[start].strip()}` and it ends with `{last}`.")


def compare_reply(what: str, turn: list[dict], next_id: str) -> Reply:
    """Two files at once: one reply asks for both, the next compares them."""
    paths = [p.strip() for p in re.split(r"\band\b|,", what) if p.strip()][:2]
    results = tool_results(turn)
    if not results:
        calls = [(f"{next_id}_{n}", "read_file", {"path": path}) for n, path in enumerate(paths, 1)]
        return Reply(f"I will read {' and '.join(paths)}.", calls)
    parts = []
    for path, result in zip(paths, results):
        if is_refusal(result):
            parts.append(f"{path}: {first_line(result)}")
        else:
            names = re.findall(r"^\s*(?:def|class) (\w+)", result, re.MULTILINE)
            parts.append(f"{path} has {len(result.splitlines())} lines ({', '.join(names) or 'no definitions'})")
    return Reply("; ".join(parts) + ".")


def broken_calls_reply(turn: list[dict], next_id: str) -> Reply:
    """Calls a careless model makes: bad JSON, a missing and a mistyped argument, a made-up tool."""
    results = tool_results(turn)
    if not results:
        return Reply("Let me try a few things.", [
            (f"{next_id}_1", "read_file", '{"path": "calc.py"'),   # not valid JSON: sent as it is
            (f"{next_id}_2", "read_file", {}),
            (f"{next_id}_3", "read_file", {"path": 7}),
            (f"{next_id}_4", "summon_files", {"path": "."}),
        ])
    return Reply("Those calls failed: " + " | ".join(first_line(r) for r in results))


def test_and_fix_reply(turn: list[dict], next_id: str) -> Reply:
    """Run the suite, fix the case that fails by editing calc.py, run it again."""
    name, result = last_tool_call_and_result(turn)
    if result is None:
        return Reply("I will run the test suite first.", [(next_id, "run_command", {"command": TEST_COMMAND})])
    if is_refusal(result) and not TESTS_RAN.search(result):
        return Reply(f"I could not go on: {first_line(result)}")
    if name == "edit_file":
        return Reply("calc.py is edited; I will run the tests again.",
                     [(next_id, "run_command", {"command": TEST_COMMAND})])
    failing = failing_cases(result)
    if not failing:
        if not tests_passed(result):
            return Reply(f"I cannot tell whether the tests pass: {first_line(result) or 'the run printed nothing'}")
        return Reply(f"All {tests_ran(result)} tests pass.")
    if failing[0] != "test_divide_by_zero" or any(name == "edit_file" for name, _ in calls_in(turn)):
        return Reply(f"The tests still fail: {', '.join(failing)}.")
    edit = {"path": "calc.py", "old": BUGGY_LINE, "new": GUARDED_LINE}
    return Reply(f"{failing[0]} fails: divide() lets a zero divisor through. I will make it raise ValueError.",
                 [(next_id, "edit_file", edit)])


def delete_build_reply(turn: list[dict], next_id: str) -> Reply:
    """Ask to delete a directory; a denial is an answer the mock respects."""
    result = last_tool_result(turn)
    if result is None:
        return Reply("I will delete the build directory.", [(next_id, "run_command", {"command": "rm -rf build"})])
    if is_refusal(result):
        return Reply(f"I will not delete the build directory: {first_line(result)}")
    return Reply("The build directory is gone.")


def missing_file_reply(turn: list[dict], next_id: str) -> Reply:
    """An error is information: read the error, look around, read what is there."""
    calls = calls_in(turn)
    results = tool_results(turn)
    if not calls:
        return Reply("I will read config.py.", [(next_id, "read_file", {"path": "config.py"})])
    if len(calls) == 1:
        if not is_refusal(results[-1]) and results[-1].strip():
            return Reply(f"config.py has {len(results[-1].splitlines())} lines.")
        return Reply("config.py is not there; I will see what the project has.",
                     [(next_id, "list_dir", {"path": "."})])
    if len(calls) == 2:
        modules = [n for n in results[-1].split() if n.endswith(".py") and not n.startswith("test_")]
        target = modules[0] if modules else "calc.py"
        return Reply(f"There is no config.py; I will read {target} instead.", [(next_id, "read_file", {"path": target})])
    names = re.findall(r"^(?:def|class) (\w+)", results[-1], re.MULTILINE)
    return Reply("There is no config.py in this project. The code is in the module I read, which defines "
                 f"{', '.join(names) or 'nothing'}.")


def repeat_reply(turn: list[dict], next_id: str) -> Reply:
    """Ask for the same call until a result says it was blocked."""
    results = tool_results(turn)
    if results and results[-1].startswith("blocked:"):
        return Reply(f"I was repeating myself: {first_line(results[-1])}")
    return Reply("Once more.", [(next_id, "list_dir", {"path": "."})])


def run_tests_reply(turn: list[dict], next_id: str) -> Reply:
    """Round 1 of the script: run the suite, then name the failing case."""
    result = last_tool_result(turn)
    if result is None:
        return Reply("I will run the test suite first.", [(next_id, "run_command", {"command": TEST_COMMAND})])
    if is_refusal(result) and not TESTS_RAN.search(result):
        return Reply(f"I could not run the tests: {first_line(result)}")
    failing = failing_cases(result)
    if failing:
        reason = failure_reason(result)
        return Reply(f"The failing case is {failing[0]}" + (f" ({reason})." if reason else ".")
                     + (f" Also failing: {', '.join(failing[1:])}." if failing[1:] else ""))
    if not tests_passed(result):
        return Reply(f"I cannot tell whether the tests pass: {first_line(result) or 'the run printed nothing'}")
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
    if is_refusal(result) and not TESTS_RAN.search(result):
        return Reply(f"I could not finish the fix: {first_line(result)}")
    if name == "edit_file":
        return Reply("calc.py is edited; I will run the tests again.",
                     [(next_id, "run_command", {"command": TEST_COMMAND})])
    still = failing_cases(result)
    if still:
        return Reply(f"The tests still fail: {', '.join(still)}.")
    if not tests_passed(result):
        return Reply(f"I cannot tell whether the tests pass: {first_line(result) or 'the run printed nothing'}")
    return Reply(f"All {tests_ran(result)} tests pass now: divide() raises ValueError for a zero divisor.")


def last_test_output(messages: list[dict]) -> str | None:
    """The most recent tool result that looks like unittest output."""
    for message in reversed(messages):
        content = str(message.get("content", ""))
        if message.get("role") == "tool" and TESTS_RAN.search(content):
            return content
    return None


def failure_reason(output: str) -> str:
    """The first exception line of the first failure, e.g. 'ZeroDivisionError: division by zero'."""
    match = re.search(r"^(\w+(?:Error|Exception): .*)$", output, re.MULTILINE)
    return match.group(1) if match else ""


# --- reading the history --------------------------------------------------------

def last_user_index(messages: list[dict]) -> int | None:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            return index
    return None


def count_tool_calls(messages: list[dict]) -> int:
    """How many tool calls the history holds: gives deterministic ids call_1, call_2..."""
    return sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")


def calls_in(turn: list[dict]) -> list[tuple[str, dict]]:
    """(name, args) of every call the model made in this turn, in order."""
    return [(call["name"], call.get("args", {})) for m in turn for call in m.get("tool_calls") or []]


def tool_results(turn: list[dict]) -> list[str]:
    return [str(m.get("content", "")) for m in turn if m.get("role") == "tool"]


def last_tool_result(turn: list[dict]) -> str | None:
    return last_tool_call_and_result(turn)[1]


def last_tool_call_and_result(turn: list[dict]) -> tuple[str | None, str | None]:
    """The name and result of the latest tool call in this turn, if any."""
    names = {call["id"]: call["name"] for m in turn for call in m.get("tool_calls") or []}
    for message in reversed(turn):
        if message.get("role") == "tool":
            return names.get(message.get("tool_call_id")), str(message.get("content", ""))
    return None, None


def is_refusal(result: str) -> bool:
    """Tool results that start like this mean the tool did not do its job."""
    return result.startswith(("error:", "denied:", "blocked:"))


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


def failing_cases(output: str) -> list[str]:
    """Test names from unittest's FAIL:/ERROR: lines, in order, without repeats."""
    return list(dict.fromkeys(FAILED_CASE.findall(output)))


def tests_passed(output: str) -> bool:
    """A test run that passed: the command succeeded (a failed call reads "error: ..."), and
    unittest said how many tests ran and "OK". A command that was not found, or a result
    without the status, is no pass."""
    return (not is_refusal(output) and bool(TESTS_RAN.search(output))
            and re.search(r"^OK\b", output, re.MULTILINE) is not None)


def tests_ran(output: str) -> str:
    match = TESTS_RAN.search(output)
    return match.group(1) if match else "the"


INJECTED = re.compile(r"^\[@(\S+): (file|dir|url|image), ", re.MULTILINE)
DEFINED = re.compile(r"^(?:def|class) (\w+)", re.MULTILINE)


def content_text(message: dict) -> str:
    """A message's text: its content, or the text parts of a content list (an image is a part too)."""
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict)
                         and part.get("type") == "text")
    return str(content or "")


def attached_reply(said: str, attached: list[tuple[str, str]]) -> Reply:
    """What the mock makes of injected references: one sentence each, from the blocks themselves."""
    sentences = []
    for ref, kind in attached:
        body = block_body(said, ref)
        lines = body.splitlines()
        if kind == "image":
            sentences.append(f"{ref} is an image; I can see it.")
        elif kind == "dir":
            sentences.append(f"{ref} holds {len(lines)} " + ("entry: " if len(lines) == 1 else "entries: ") + ", ".join(line.split()[0] for line in lines[:5])
                             + ("." if len(lines) <= 5 else ", ..."))
        elif kind == "url":
            sentences.append(f"{ref} says: {lines[0] if lines else '(nothing)'}")
        else:
            names = DEFINED.findall(body)
            sentences.append(f"{ref} has {len(lines)} lines" + (f" and defines {', '.join(names)}." if names else "."))
    return Reply("From what you attached: " + " ".join(sentences))


def attached_before(earlier: list[dict]) -> Reply:
    """What earlier user messages carried, as the history holds it (not as the files are now)."""
    for message in earlier:
        if message.get("role") != "user":
            continue
        said = content_text(message)
        for ref, kind in INJECTED.findall(said):
            lines = block_body(said, ref).rstrip("\n").splitlines()
            last = lines[-1].strip() if lines else ""
            return Reply(f"Earlier you attached {ref} ({kind}, {len(lines)} lines); as you sent it, "
                         f"its last line is `{last}`.")
    return Reply("I have no record of anything attached earlier in this conversation.")


def block_body(said: str, ref: str) -> str:
    """The text between a reference's header line and its end line."""
    start = said.find(f"[@{ref}: ")
    start = said.find("\n", start) + 1
    end = said.find(f"[end of @{ref}]", start)
    return said[start:end] if start and end >= 0 else ""


INSTRUCTION_HEADER = re.compile(r"^# Instructions from (\S+)$", re.MULTILINE)


def rules_reply(earlier: list[dict]) -> Reply:
    """Each instruction file the system messages carry, with the first line of its text."""
    found = []
    for message in earlier:
        if message.get("role") != "system":
            continue
        text = content_text(message)
        heads = list(INSTRUCTION_HEADER.finditer(text))
        for k, head in enumerate(heads):
            end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
            lines = [line.strip() for line in text[head.end():end].splitlines() if line.strip()]
            found.append(f"{head.group(1)} says `{lines[0] if lines else ''}`")
    if not found:
        return Reply("No project instructions reached me: I see no AGENTS.md in my context.")
    return Reply(f"I follow {len(found)} instruction file(s), outermost first: " + "; ".join(found) + ".")


REMEMBER = re.compile(r"^remember (?:(for this project) )?that (.+)$", re.IGNORECASE | re.DOTALL)
MEMORY_HEADER = "[memory: "


def remember_reply(asked: re.Match, turn: list[dict], next_id: str) -> Reply:
    """Keep what the user asked to be kept, then say what the remember tool answered."""
    result = last_tool_result(turn)
    if result is None:
        scope = "project" if asked.group(1) else "user"
        return Reply("I will remember that.", [(next_id, "remember", {"text": asked.group(2).strip(), "scope": scope})])
    if is_refusal(result):
        return Reply(f"I did not keep it: {first_line(result)}")
    return Reply(f"Done: {first_line(result)}")


def recalled_reply(earlier: list[dict]) -> Reply:
    """The memory lines this session started with, as the history carries them."""
    for message in earlier:
        content = content_text(message)
        if message.get("role") == "system" and content.startswith(MEMORY_HEADER):
            lines = [line[2:] for line in content.splitlines() if line.startswith("- ")]
            return Reply(f"I remember {len(lines)} thing" + ("" if len(lines) == 1 else "s") + ": "
                         + "; ".join(lines) + ".")
    return Reply("Nothing was recalled into this session.")


PLAN_LINE = re.compile(r"^\s*\[(.)\] (\S+)\. (.*)$", re.MULTILINE)
FIX_PLAN = ("read calc.py and its tests", "find the case that fails", "fix divide and run the tests")
PLAN_READS = (("read_file", {"path": "calc.py"}), ("read_file", {"path": "test_calc.py"}), ("list_dir", {"path": "."}))


def plan_in(result: str) -> dict[str, str]:
    """content -> id of each item of a todo result (the list as the tool showed it)."""
    return {content: item_id for _, item_id, content in PLAN_LINE.findall(result)}


def todo_results(messages: list[dict]) -> list[str]:
    names = {call["id"]: call["name"] for m in messages for call in m.get("tool_calls") or []}
    return [str(m.get("content", "")) for m in messages
            if m.get("role") == "tool" and names.get(m.get("tool_call_id")) == "todo"]


def plan_fix_reply(turn: list[dict], next_id: str) -> Reply:
    """Plan, work for three rounds without looking at the plan, then bring it up to date."""
    names = [name for name, _ in calls_in(turn)]
    if not names:
        items = [{"content": FIX_PLAN[0], "status": "in_progress"}] + [
            {"content": text, "status": "pending"} for text in FIX_PLAN[1:]]
        return Reply("I will make a plan first.", [(next_id, "todo", {"items": items})])
    results = todo_results(turn)
    if is_refusal(results[-1]):
        return Reply(f"My plan was refused: {first_line(results[-1])}")
    if names.count("todo") >= 2:
        return Reply(f"The plan is up to date: {FIX_PLAN[0]} is done; next: {FIX_PLAN[1]}.")
    last_todo = max(i for i, m in enumerate(turn) if any(c["name"] == "todo" for c in m.get("tool_calls") or []))
    reminded = any(m.get("role") == "system" and content_text(m).startswith("[plan reminder]")
                   for m in turn[last_todo:])
    reads = len(names) - 1
    if reminded or reads >= len(PLAN_READS):
        ids = plan_in(results[-1])
        statuses = ("done", "in_progress", "pending")
        items = [{"id": ids.get(text, str(n)), "content": text, "status": status}
                 for n, (text, status) in enumerate(zip(FIX_PLAN, statuses), 1)]
        said = "The reminder is right: I have read both files." if reminded else "I have read both files."
        return Reply(f"{said} I will update the plan.", [(next_id, "todo", {"items": items})])
    name, args = PLAN_READS[reads]
    return Reply(f"Step {reads + 1} of the reading.", [(next_id, name, args)])


def bad_plan_reply(turn: list[dict], next_id: str) -> Reply:
    """A careless plan: two items in progress at once."""
    results = todo_results(turn)
    if not results:
        items = [{"content": FIX_PLAN[0], "status": "in_progress"}, {"content": FIX_PLAN[1], "status": "in_progress"}]
        return Reply("Two things at once.", [(next_id, "todo", {"items": items})])
    if is_refusal(results[-1]):
        return Reply(f"The tool refused my plan: {first_line(results[-1])}")
    return Reply("The tool took my plan as I sent it.")


def next_step_reply(earlier: list[dict]) -> Reply:
    """The next open item of the latest plan the todo tool showed in this conversation."""
    shown = [r for r in todo_results(earlier) if not is_refusal(r)]
    if not shown:
        return Reply("I have made no plan in this conversation.")
    items = PLAN_LINE.findall(shown[-1])
    for mark in (">", " "):
        for status, item_id, content in items:
            if status == mark:
                return Reply(f"Next is item {item_id}: {content}.")
    return Reply("Every item of the plan is done.")


SUMMARY_ASK = "Summarise this part of a conversation"  # how compaction's request opens (mca/context)
SUMMARY_MARK = "[summary of the earlier conversation"  # how its summary opens in the history
EARLIER_ASKS = re.compile(r'The user asked: (".*?")\.(?: Tools| The last|$)')


def summary_reply(said: str) -> Reply:
    """A summary made from the transcript alone, the same for the same transcript."""
    lines = said.splitlines()[1:]
    asked = [f'"{short(line[len("user: "):], 48)}"' for line in lines
             if line.startswith("user: ") and SUMMARY_MARK not in line]
    earlier = [line for line in lines if SUMMARY_MARK in line]
    if earlier:  # what the earlier summary says the user asked comes first: a summary carries it on
        before = EARLIER_ASKS.search(" ".join(lines[lines.index(earlier[0]):]))
        asked = ([before.group(1)] if before else []) + asked
    tools: dict[str, int] = {}
    for line in lines:
        if line.startswith("assistant calls "):
            name = line.split()[2]
            tools[name] = tools.get(name, 0) + 1
    answers = [line[len("assistant: "):] for line in lines if line.startswith("assistant: ")]
    said_by = ("user: ", "assistant: ", "assistant calls ", "tool result (")
    entries = sum(1 for line in lines if line.startswith(said_by))
    parts = [f"Summary of {entries} earlier entries (messages and tool calls)."]
    if earlier:
        parts.append("It went on from an earlier summary.")
    if asked:
        parts.append("The user asked: " + "; ".join(asked) + ".")
    if tools:
        parts.append("Tools used: " + ", ".join(f"{name} x{count}" for name, count in tools.items()) + ".")
    if answers:
        parts.append(f'The last answer was: "{short(answers[-1], 80)}"')
    return Reply(" ".join(parts))


def summarised_reply(earlier: list[dict]) -> Reply:
    """What the history's summary says, as the history carries it."""
    for message in earlier:
        content = content_text(message)
        if message.get("role") == "user" and content.startswith(SUMMARY_MARK):
            return Reply("The earlier conversation was summarised: " + content.split("\n", 1)[-1])
    return Reply("Nothing was summarised: the whole conversation is still in my context.")


def short(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


DELEGATE = re.compile(r"^(?:ask a subagent|delegate)\b[:,]?\s*(?:to\s+)?(\S.*)$", re.IGNORECASE | re.DOTALL)


def delegate_reply(request: str, turn: list[dict], next_id: str) -> Reply:
    """Hand the request to a subagent (a few of its words as the description), then pass on
    what it answered, or why it did not."""
    result = last_tool_result(turn)
    if result is None:
        task = {"description": short(request, 40), "prompt": request.strip()}
        return Reply("I will hand that to a subagent.", [(next_id, "task", task)])
    if is_refusal(result):
        return Reply(f"The side task did not finish: {first_line(result)}")
    return Reply(f"The subagent answered: {result}")
