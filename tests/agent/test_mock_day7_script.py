"""The mock model's day-7 script: "run the tests and tell me which case fails", then "fix it"
in the same (or a resumed) conversation."""

from __future__ import annotations

import json

from .days import module_since

module_since(7, "the day-7 script")

from mca.gateway.mock import MockGateway, decide  # noqa: E402
from mca.gateway.mock_scenarios import BUGGY_LINE, TEST_COMMAND  # noqa: E402

FAILED_RUN = (  # a failed call: run_command raised it, the loop made it an error result
    "error: exit status 1 (40 ms)\n"
    "test_divide_by_zero (test_calc.CalcTests.test_divide_by_zero) ... ERROR\n"
    "ERROR: test_divide_by_zero (test_calc.CalcTests.test_divide_by_zero)\n"
    "ZeroDivisionError: division by zero\n"
    "Ran 4 tests in 0.001s\n\nFAILED (errors=1)\n"
)
PASSED_RUN = "exit status 0 (35 ms)\nRan 4 tests in 0.001s\n\nOK\n"
SYSTEM = {"role": "system", "content": "You are mca."}
ROUND_ONE = [
    SYSTEM,
    {"role": "user", "content": "run the tests and tell me which case fails"},
    {"role": "assistant", "content": "I will run the test suite first.",
     "tool_calls": [{"id": "call_1", "name": "run_command", "args": {"command": TEST_COMMAND}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": FAILED_RUN},
    {"role": "assistant", "content": "The failing case is test_divide_by_zero."},
]


def first_sentence(text: str) -> str:
    return text.split(". ")[0]


def test_round_one_asks_to_run_the_suite_with_a_numbered_call_id():
    reply = decide(ROUND_ONE[:2])
    assert reply.calls == [("call_1", "run_command", {"command": "python -m unittest -v"})]


def test_round_one_names_the_failing_case_from_the_tool_result():
    reply = decide(ROUND_ONE[:4])
    assert reply.calls == []
    assert "test_divide_by_zero" in reply.text


def test_fix_it_with_history_names_the_case_in_its_first_sentence_and_edits():
    messages = ROUND_ONE + [{"role": "user", "content": "fix it"}]
    reply = decide(messages)
    assert "test_divide_by_zero" in first_sentence(reply.text)
    ((call_id, name, args),) = reply.calls
    assert (call_id, name) == ("call_2", "edit_file")
    assert args["old"] == BUGGY_LINE and "raise ValueError" in args["new"]


def test_fix_it_runs_the_suite_after_the_edit_then_reports_all_passing():
    messages = ROUND_ONE + [{"role": "user", "content": "fix it"}]
    edit = decide(messages)
    messages += [{"role": "assistant", "content": edit.text,
                  "tool_calls": [{"id": "call_2", "name": "edit_file", "args": edit.calls[0][2]}]},
                 {"role": "tool", "tool_call_id": "call_2", "content": "edited calc.py: replaced 1 occurrence"}]
    rerun = decide(messages)
    assert rerun.calls == [("call_3", "run_command", {"command": TEST_COMMAND})]
    messages += [{"role": "assistant", "content": rerun.text,
                  "tool_calls": [{"id": "call_3", "name": "run_command", "args": {"command": TEST_COMMAND}}]},
                 {"role": "tool", "tool_call_id": "call_3", "content": PASSED_RUN}]
    final = decide(messages)
    assert final.calls == [] and "All 4 tests pass" in final.text


NOT_FOUND = "error: exit status 127 (3 ms)\n--- stderr ---\n/bin/sh: 1: python: not found\n"


def test_a_test_run_that_never_ran_is_no_pass_and_names_the_failure():
    messages = ROUND_ONE[:3] + [{"role": "tool", "tool_call_id": "call_1", "content": NOT_FOUND}]
    reply = decide(messages)
    assert reply.calls == [] and "pass" not in reply.text.replace("could not", "")
    assert "exit status 127" in reply.text


def test_an_ok_result_without_unittest_ok_is_no_pass_either():
    messages = ROUND_ONE[:3] + [{"role": "tool", "tool_call_id": "call_1", "content": "exit status 0 (3 ms)"}]
    reply = decide(messages)
    assert "tests pass;" not in reply.text and "cannot tell" in reply.text


def test_a_rerun_that_fails_to_start_after_the_fix_is_no_pass():
    messages = ROUND_ONE + [{"role": "user", "content": "fix it"}]
    edit = decide(messages)
    messages += [{"role": "assistant", "content": edit.text,
                  "tool_calls": [{"id": "call_2", "name": "edit_file", "args": edit.calls[0][2]}]},
                 {"role": "tool", "tool_call_id": "call_2", "content": "edited calc.py: replaced 1 occurrence"},
                 {"role": "assistant", "content": "again",
                  "tool_calls": [{"id": "call_3", "name": "run_command", "args": {"command": TEST_COMMAND}}]},
                 {"role": "tool", "tool_call_id": "call_3", "content": NOT_FOUND}]
    final = decide(messages)
    assert final.calls == [] and "pass" not in final.text.replace("could not", "") and "127" in final.text


def test_fix_it_without_history_has_no_record_and_calls_nothing():
    reply = decide([SYSTEM, {"role": "user", "content": "fix it"}])
    assert reply.calls == [] and "no record" in reply.text


def test_a_refused_edit_is_reported_not_retried():
    messages = ROUND_ONE + [
        {"role": "user", "content": "fix it"},
        {"role": "assistant", "content": "...", "tool_calls": [{"id": "call_2", "name": "edit_file", "args": {}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "denied: the user did not approve edit_file"},
    ]
    reply = decide(messages)
    assert reply.calls == [] and "denied" in reply.text


def test_other_prompts_get_a_short_help_reply():
    reply = decide([SYSTEM, {"role": "user", "content": "what is the weather"}])
    assert reply.calls == [] and "run the tests" in reply.text


def test_the_stream_fragments_text_and_args_and_ends_with_usage_and_finish():
    deltas = list(MockGateway().stream(ROUND_ONE[:2], []))
    texts = [d.text for d in deltas if d.text]
    chunks = [d.tool_call for d in deltas if d.tool_call]
    assert len(texts) > 1 and "".join(texts) == "I will run the test suite first."
    assert chunks[0].id == "call_1" and chunks[0].name == "run_command"
    assert len(chunks) > 2 and json.loads("".join(c.args for c in chunks)) == {"command": TEST_COMMAND}
    assert deltas[-2].usage is not None and deltas[-2].usage.input_tokens > 0
    assert deltas[-1].finish == "tool_calls"

