"""The tool loop (day 3): event order, every call answered, errors fed back, the round cap;
then the approval gate in the loop (day 5) and the loop guard and cancel (day 6)."""

from __future__ import annotations

import pytest

from .days import DAY, module_since, since

module_since(3, "the tool loop")

from mca.agent.events import (ErrorOccurred, MessageAdded, TextDelta, ToolFinished,  # noqa: E402
                              ToolStarted, UsageReported)
from mca.agent.loop import run_turn  # noqa: E402
from mca.gateway.base import StreamDelta, Usage  # noqa: E402
from mca.gateway.chain import find_break  # noqa: E402
from mca.gateway.mock import MockGateway  # noqa: E402
from mca.tools.base import Tool, ToolError  # noqa: E402
from mca.tools.registry import ToolRegistry  # noqa: E402

from .scripted import Scripted, call, text  # noqa: E402

CALC = "def add(a, b):\n    return a + b\n\n\ndef divide(a, b):\n    return a / b\n"


def fake_tools(**outputs) -> ToolRegistry:
    """Tools that return canned text (or raise) without touching the disk."""
    def runner(value):
        def run(args):
            if isinstance(value, BaseException):
                raise value
            return value
        return run
    return ToolRegistry([
        Tool(name, name, {"type": "object", "properties": {"command": {"type": "string"},
                                                            "path": {"type": "string"}}},
             runner(value), read_only=name in ("read_file", "list_dir", "grep"))
        for name, value in outputs.items()])


def turn(gateway, tools, recorder, *, text_in="go", yes=True, ask=None, **options):
    """One run_turn with what this day's loop takes (day 5 adds the approver)."""
    history = [{"role": "system", "content": "sys"}]
    if DAY >= 5:
        from mca.tools.approval import Approver
        options["approver"] = Approver.for_tools(tools, yes=yes, ask=ask)
    if DAY >= 6:
        options.setdefault("sleep", lambda seconds: None)  # a retry never waits for real here
    reply = run_turn(history, text_in, gateway=gateway, tools=tools, emit=recorder, **options)
    return history, reply


def test_a_round_emits_the_logged_events_in_contract_order(recorder):
    history, reply = turn(MockGateway(), fake_tools(read_file=CALC), recorder, text_in="what does divide do")
    logged = [e for e in recorder.events if isinstance(e, (MessageAdded, UsageReported, ToolFinished))]
    described = [type(e).__name__ + (":" + e.message["role"] if isinstance(e, MessageAdded) else "")
                 for e in logged]
    assert described == ["MessageAdded:user", "UsageReported", "MessageAdded:assistant", "ToolFinished",
                         "MessageAdded:tool", "UsageReported", "MessageAdded:assistant"]
    kinds = recorder.kinds()
    started = kinds.index("ToolStarted")
    assert kinds[started - 1] == "MessageAdded" and kinds[started + 1] == "ToolFinished"
    assert kinds.index("MessageAdded") < kinds.index("TextDelta")  # the user message comes first
    assert reply == "divide is `def divide(a, b):` and it ends with `return a / b`."
    assert [m["role"] for m in history] == ["system", "user", "assistant", "tool", "assistant"]
    assert "tool_calls" not in history[-1]  # omitted when empty


def test_streamed_chunks_merge_into_one_call_with_parsed_args(recorder):
    gateway = Scripted(call("c1", "read_file", '{"path": "calc.py"}'), text("done"))
    history, _ = turn(gateway, fake_tools(read_file="def add(a, b): ..."), recorder)
    assert history[2]["tool_calls"] == [{"id": "c1", "name": "read_file", "args": {"path": "calc.py"}}]
    assert recorder.of(ToolStarted)[0].args == {"path": "calc.py"}
    assert history[3] == {"role": "tool", "tool_call_id": "c1", "content": "def add(a, b): ..."}


def test_every_call_of_a_reply_is_answered_in_call_order_before_the_model_is_asked_again(recorder):
    two = call("c1", "read_file", '{"path": "a"}')[:-1] + call("c2", "grep", '{"path": "b"}', index=1)
    gateway = Scripted(two, text("both read"))
    history, reply = turn(gateway, fake_tools(read_file="A", grep="B"), recorder)
    assert [(m["tool_call_id"], m["content"]) for m in history if m["role"] == "tool"] == [("c1", "A"), ("c2", "B")]
    assert gateway.requests[1][-2:] == history[3:5] and reply == "both read"
    assert find_break(history) is None


def test_text_deltas_stream_in_order(recorder):
    gateway = Scripted([StreamDelta(text="Hel"), StreamDelta(text="lo")])
    _, reply = turn(gateway, fake_tools(), recorder)
    assert [e.text for e in recorder.of(TextDelta)] == ["Hel", "lo"] and reply == "Hello"


def test_bad_json_args_go_back_to_the_model_as_an_error_result(recorder):
    gateway = Scripted(call("c1", "read_file", '{"path": '), text("sorry"))
    history, reply = turn(gateway, fake_tools(read_file="never"), recorder)
    assert history[3]["content"].startswith("error: the arguments were not valid JSON")
    assert recorder.of(ToolFinished)[0].ok is False and reply == "sorry"
    assert gateway.requests[1][-1] == history[3]  # the model saw the error


@pytest.mark.parametrize("args_json", ['[1, 2]', '"text"'])
def test_args_that_are_not_an_object_are_refused(recorder, args_json):
    history, _ = turn(Scripted(call("c1", "read_file", args_json), text("ok")), fake_tools(read_file="x"), recorder)
    assert history[3]["content"].startswith("error: the arguments must be a JSON object")


def test_a_tool_error_is_fed_back_not_raised(recorder):
    gateway = Scripted(call("c1", "read_file", '{"path": "x"}'), text("ok"))
    history, _ = turn(gateway, fake_tools(read_file=ToolError("x is not a file")), recorder)
    assert history[3]["content"] == "error: x is not a file"


def test_an_unknown_tool_is_an_error_result(recorder):
    gateway = Scripted(call("c1", "launch_rocket", "{}"), text("ok"))
    history, _ = turn(gateway, fake_tools(read_file="x"), recorder)
    assert history[3]["content"] == "error: no tool named 'launch_rocket'; available: read_file"


def test_the_number_of_rounds_is_capped(recorder):
    gateway = Scripted(*[call(f"c{n}", "read_file", f'{{"path": "f{n}"}}') for n in range(10)])
    history, reply = turn(gateway, fake_tools(read_file="x"), recorder, max_rounds=3)
    assert len(gateway.requests) == 3 and reply == ""
    assert recorder.of(ErrorOccurred)[-1] == ErrorOccurred(
        "stopped after 3 model rounds without a final answer", "loop")
    assert find_break(history) is None  # the history is still a valid chain


def test_reported_usage_is_passed_on(recorder):
    turn(Scripted([StreamDelta(text="hi"), StreamDelta(usage=Usage(11, 3))]), fake_tools(), recorder)
    assert recorder.of(UsageReported) == [UsageReported(11, 3)]


def test_a_failed_request_ends_the_turn_with_one_gateway_error(recorder):
    from mca.gateway.base import GatewayError

    history, reply = turn(Scripted(GatewayError("HTTP 401: bad key", status=401)), fake_tools(), recorder)
    (error,) = recorder.of(ErrorOccurred)
    assert error.where == "gateway" and "HTTP 401: bad key" in error.message
    assert reply == "" and history[-1]["role"] == "user"


# --- day 5: the gate in the loop -----------------------------------------------------------

@since(5, "the approval gate")
def test_a_denied_call_is_a_result_blocked_by_approval_and_the_turn_goes_on(recorder):
    gateway = Scripted(call("c1", "run_command", '{"command": "make clean"}'), text("I will not, then."))
    history, reply = turn(gateway, fake_tools(run_command="ran!"), recorder, yes=False)
    finished = recorder.of(ToolFinished)[0]
    assert (finished.ok, finished.blocked_by) == (False, "approval")
    assert history[3]["content"].startswith("denied: run_command: make clean needs approval")
    assert reply == "I will not, then." and len(gateway.requests) == 2  # the model answered the denial


@since(5, "the approval gate")
def test_read_only_tools_run_without_asking(recorder):
    questions: list[str] = []
    gateway = Scripted(call("c1", "read_file", '{"path": "a"}'), text("ok"))
    history, _ = turn(gateway, fake_tools(read_file="A"), recorder, yes=False,
                      ask=lambda q: questions.append(q) or "n")
    assert questions == [] and history[3]["content"] == "A"


@since(5, "the approval gate")
def test_the_user_answering_yes_runs_the_call(recorder):
    questions: list[str] = []
    gateway = Scripted(call("c1", "run_command", '{"command": "make test"}'), text("ok"))
    history, _ = turn(gateway, fake_tools(run_command="exit status 0 (1 ms)"), recorder, yes=False,
                      ask=lambda q: questions.append(q) or "y")
    assert questions == ["run_command: make test"] and history[3]["content"] == "exit status 0 (1 ms)"


# --- day 6: errors fed back, the loop guard, cancel ----------------------------------------------

@since(6, "error feedback")
def test_an_unexpected_tool_failure_is_fed_back_with_its_type(recorder):
    gateway = Scripted(call("c1", "read_file", '{"path": "x"}'), text("noted"))
    history, reply = turn(gateway, fake_tools(read_file=FileNotFoundError("no such file: x")), recorder)
    assert history[3]["content"] == "error: read_file failed: FileNotFoundError: no such file: x"
    assert recorder.of(ToolFinished)[0].ok is False and reply == "noted"


@since(6, "the loop guard")
def test_the_same_call_a_third_time_is_blocked_by_the_loop_guard(recorder):
    same = '{"path": "calc.py"}'
    gateway = Scripted(call("c1", "read_file", same), call("c2", "read_file", same),
                       call("c3", "read_file", same), text("giving up"))
    history, _ = turn(gateway, fake_tools(read_file="x"), recorder)
    assert [f.blocked_by for f in recorder.of(ToolFinished)] == [None, None, "loop_guard"]
    assert history[-2]["content"].startswith("blocked: read_file was already called 2 times")


@since(6, "the loop guard")
def test_the_loop_guard_counts_arguments_not_just_the_tool(recorder):
    gateway = Scripted(*[call(f"c{n}", "read_file", f'{{"path": "f{n}"}}') for n in range(4)], text("done"))
    turn(gateway, fake_tools(read_file="x"), recorder)
    assert [f.blocked_by for f in recorder.of(ToolFinished)] == [None] * 4


@since(6, "cancel")
def test_ctrl_c_during_a_tool_leaves_every_call_answered(recorder):
    two = call("c1", "run_command", '{"command": "sleep"}')[:-1] + call("c2", "read_file", '{"path": "a"}', 1)
    try:
        history, reply = turn(Scripted(two), fake_tools(run_command=KeyboardInterrupt(), read_file="A"), recorder)
    except KeyboardInterrupt:  # caught here, or it would stop the whole test session
        pytest.fail("Ctrl-C during a tool went out of the turn")
    assert history[-2:] == [
        {"role": "tool", "tool_call_id": "c1", "content": "error: cancelled by the user before it finished"},
        {"role": "tool", "tool_call_id": "c2", "content": "error: cancelled by the user before it finished"}]
    assert recorder.of(ErrorOccurred)[-1] == ErrorOccurred("cancelled by the user", "loop") and reply == ""
    assert find_break(history) is None
