"""The mock model: a pure function of the messages, a script that grows each day, and a
refusal of any history a real API would refuse."""

from __future__ import annotations

import itertools
import json

import pytest

from mca.gateway.base import GatewayError
from mca.gateway.mock import MockGateway, decide

from .days import DAY, since

SYSTEM = {"role": "system", "content": "You are mca."}


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def asked(call_id: str, name: str, args: dict, text: str = "") -> dict:
    return {"role": "assistant", "content": text, "tool_calls": [{"id": call_id, "name": name, "args": args}]}


def answer(call_id: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def send(messages: list[dict]):
    """One request to the mock the way this day sends it (day 1: whole reply; day 2+: a stream)."""
    gateway = MockGateway()
    return gateway.complete(messages) if DAY == 1 else list(gateway.stream(messages, []))


# --- day 1: remembering needs the history ------------------------------------------------

def test_a_name_is_remembered_only_if_the_history_carries_it():
    told = [SYSTEM, user("my name is Ada"), {"role": "assistant", "content": "Nice to meet you, Ada."}]
    assert decide(told[:2]).text == "Nice to meet you, Ada."
    assert decide(told + [user("what is my name?")]).text == "Your name is Ada."
    assert decide([SYSTEM, user("what is my name?")]).text == "I have no record of your name in this conversation."


def test_anything_else_gets_the_help_line_naming_this_days_script():
    text = decide([SYSTEM, user("what is the weather")]).text
    expected = {1: "my name is Ada", 2: "read calc.py", 3: "what does divide do", 4: "run the tests and fix",
                5: "run the tests and fix", 6: "run the tests and fix", 7: "then \"fix it\"", 8: "@calc.py"}[DAY]
    assert text.startswith("I am the mock model") and expected in text


def test_the_reply_is_a_pure_function_of_the_messages():
    messages = [SYSTEM, user("my name is Ada"), {"role": "assistant", "content": "Nice to meet you, Ada."},
                user("what is my name?")]
    assert send(messages) == send(list(messages))
    assert send(messages) != send([SYSTEM, messages[-1]])  # forget the history and the reply changes


# --- the chain rule: a history no API accepts is refused, not answered ---------------------

def refusal(messages: list[dict]) -> GatewayError:
    with pytest.raises(GatewayError) as error:
        send(messages)
    return error.value


def test_a_tool_message_without_its_call_is_refused_naming_the_message():
    error = refusal([SYSTEM, user("hi"), answer("c9", "stray result")])
    assert str(error) == ("HTTP 400: invalid history: message 3 (tool) answers call 'c9', which the assistant "
                          "message before it did not make")
    assert error.status == 400 and not error.transient


def test_a_call_left_without_its_result_is_refused_naming_the_call():
    error = refusal([SYSTEM, user("read a.py"), asked("c1", "read_file", {"path": "a.py"}), user("well?")])
    assert "message 3 (assistant): call 'c1' has no result before message 4 (user)" in str(error)
    assert error.status == 400


def test_a_valid_chain_with_a_tool_round_is_answered():
    messages = [SYSTEM, user("my name is Ada"), asked("c1", "read_file", {"path": "a.py"}), answer("c1", "x"),
                {"role": "assistant", "content": "ok"}, user("what is my name?")]
    reply = send(messages)
    text = reply if DAY == 1 else "".join(d.text for d in reply)
    assert text == "Your name is Ada."


@since(6, "retries")
def test_the_refusal_is_not_worth_a_retry():
    from mca.agent.loop import should_retry

    assert not should_retry(refusal([SYSTEM, answer("c9", "x")]))


# --- day 2+: the stream and the first tool call ---------------------------------------------

@since(2, "streaming")
def test_read_asks_for_read_file_in_fragments_then_says_what_the_file_defines():
    deltas = send([SYSTEM, user("read calc.py")])
    texts = [d.text for d in deltas if d.text]
    chunks = [d.tool_call for d in deltas if d.tool_call]
    assert len(texts) > 1 and "".join(texts) == "I will read calc.py."
    assert (chunks[0].index, chunks[0].id, chunks[0].name) == (0, "call_1", "read_file")
    assert len(chunks) > 2 and json.loads("".join(c.args for c in chunks)) == {"path": "calc.py"}
    assert deltas[-2].usage.input_tokens > 0 and deltas[-1].finish == "tool_calls"
    done = decide([SYSTEM, user("read calc.py"), asked("call_1", "read_file", {"path": "calc.py"}),
                   answer("call_1", "def add(a, b):\n    return a + b\n\n\ndef divide(a, b):\n    pass\n")])
    assert done.calls == [] and done.text == "calc.py has 6 lines and defines add, divide."


@since(2, "streaming")
def test_call_ids_count_the_calls_already_in_the_history():
    earlier = [SYSTEM, user("read a.py"), asked("call_1", "read_file", {"path": "a.py"}), answer("call_1", "x"),
               {"role": "assistant", "content": "a.py has 1 lines."}]
    assert decide(earlier + [user("read b.py")]).calls == [("call_2", "read_file", {"path": "b.py"})]


@since(2, "streaming")
def test_split_text_joins_back_exactly():
    from mca.gateway.mock import split_text

    texts = ["", "a", "ab", "\U0001f600\u00e9\n", "".join(map(str, range(40)))]
    texts += ["".join(t) for t in itertools.product("xy\n", repeat=4)]
    for text, parts in itertools.product(texts, range(1, 7)):
        pieces = split_text(text, parts)
        assert "".join(pieces) == text and len(pieces) <= parts and all(pieces), (text, parts)


# --- day 3+: tools that read ---------------------------------------------------------------

@since(3, "read tools")
def test_compare_asks_for_two_files_in_one_reply():
    reply = decide([SYSTEM, user("compare calc.py and test_calc.py")])
    assert reply.calls == [("call_1_1", "read_file", {"path": "calc.py"}),
                           ("call_1_2", "read_file", {"path": "test_calc.py"})]


@since(3, "read tools")
def test_divide_quotes_the_last_line_of_divide_as_read():
    reply = decide([SYSTEM, user("what does divide do"), asked("call_1", "read_file", {"path": "calc.py"}),
                    answer("call_1", "def divide(a, b):\n    return a // b  # seed 4711\n")])
    assert reply.text == "divide is `def divide(a, b):` and it ends with `return a // b  # seed 4711`."


# --- day 4+: the fix -----------------------------------------------------------------------

@since(4, "the shell")
def test_failing_cases_reads_fail_and_error_lines_once_each():
    from mca.gateway.mock_scenarios import failing_cases

    output = "FAIL: test_a (m.T.test_a)\nERROR: test_b (m.T.test_b)\nFAIL: test_a (m.T.test_a)\n"
    assert failing_cases(output) == ["test_a", "test_b"]


@since(4, "the shell")
def test_the_fix_runs_the_suite_edits_the_failing_case_then_runs_it_again():
    from mca.gateway.mock_scenarios import BUGGY_LINE, TEST_COMMAND

    messages = [SYSTEM, user("run the tests and fix the failing case")]
    first = decide(messages)
    assert first.calls == [("call_1", "run_command", {"command": TEST_COMMAND})]
    messages += [asked("call_1", "run_command", {"command": TEST_COMMAND}),
                 answer("call_1", "exit status 1 (9 ms)\nERROR: test_divide_by_zero (t.T.test_divide_by_zero)\n"
                                  "Ran 4 tests in 0.001s\n\nFAILED (errors=1)\n")]
    ((call_id, name, args),) = decide(messages).calls
    assert (call_id, name, args["path"], args["old"]) == ("call_2", "edit_file", "calc.py", BUGGY_LINE)
    messages += [asked("call_2", "edit_file", args), answer("call_2", "edited calc.py: replaced 1 occurrence")]
    assert decide(messages).calls == [("call_3", "run_command", {"command": TEST_COMMAND})]
    messages += [asked("call_3", "run_command", {"command": TEST_COMMAND}),
                 answer("call_3", "exit status 0 (9 ms)\nRan 4 tests in 0.001s\n\nOK\n")]
    assert decide(messages).text == "All 4 tests pass." and decide(messages).calls == []


# --- day 5+: a denial is an answer -----------------------------------------------------------

@since(5, "the approval gate")
def test_a_denied_delete_is_respected_not_retried():
    messages = [SYSTEM, user("delete the build dir")]
    assert decide(messages).calls == [("call_1", "run_command", {"command": "rm -rf build"})]
    messages += [asked("call_1", "run_command", {"command": "rm -rf build"}),
                 answer("call_1", "denied: run_command: rm -rf build is not allowed (rule: deny ...)")]
    reply = decide(messages)
    assert reply.calls == [] and reply.text.startswith("I will not delete the build directory: denied:")


# --- day 6+: errors are information --------------------------------------------------------

@since(6, "error feedback")
def test_a_missing_file_makes_the_mock_look_around_and_read_what_is_there():
    messages = [SYSTEM, user("read config.py")]
    assert decide(messages).calls == [("call_1", "read_file", {"path": "config.py"})]
    messages += [asked("call_1", "read_file", {"path": "config.py"}),
                 answer("call_1", "error: read_file failed: FileNotFoundError: no such file")]
    assert decide(messages).calls == [("call_2", "list_dir", {"path": "."})]
    messages += [asked("call_2", "list_dir", {"path": "."}), answer("call_2", "calc.py\ntest_calc.py")]
    assert decide(messages).calls == [("call_3", "read_file", {"path": "calc.py"})]
    messages += [asked("call_3", "read_file", {"path": "calc.py"}), answer("call_3", "def add(a, b):\n")]
    assert decide(messages).text.endswith("which defines add.")


@since(6, "the loop guard")
def test_again_and_again_repeats_one_call_until_a_result_says_blocked():
    messages = [SYSTEM, user("check again and again")]
    for n in (1, 2):
        assert decide(messages).calls == [(f"call_{n}", "list_dir", {"path": "."})]
        messages += [asked(f"call_{n}", "list_dir", {"path": "."}), answer(f"call_{n}", "calc.py")]
    messages += [asked("call_3", "list_dir", {"path": "."}), answer("call_3", "blocked: list_dir was already ...")]
    reply = decide(messages)
    assert reply.calls == [] and reply.text.startswith("I was repeating myself: blocked:")
