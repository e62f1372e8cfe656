"""The agent loop: event order, chunk merging, errors fed back, retries, caps, the loop guard."""

from __future__ import annotations

import pytest

from mca.agent.events import (ErrorOccurred, MessageAdded, TextDelta, ToolFinished, ToolStarted,
                              UsageReported)
from mca.agent.loop import backoff_delay, run_turn
from mca.gateway.base import GatewayError, StreamDelta, ToolCallChunk, Usage
from mca.gateway.mock import MockGateway
from mca.tools.approval import Approver
from mca.tools.base import Tool
from mca.tools.registry import ToolRegistry

FAILED_RUN = ("exit status 1 (5 ms)\nERROR: test_divide_by_zero (test_calc.CalcTests.test_divide_by_zero)\n"
              "Ran 4 tests in 0.001s\n\nFAILED (errors=1)\n")


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
                                                            "path": {"type": "string"}}}, runner(value))
        for name, value in outputs.items()])


class Scripted:
    """A gateway that plays back prepared streams (or raises prepared errors), one per request."""

    def __init__(self, *replies) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict]] = []

    def stream(self, messages, tools):
        self.requests.append(messages)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        yield from reply


def text(words: str) -> list[StreamDelta]:
    return [StreamDelta(text=words), StreamDelta(finish="stop")]


def call(call_id: str, name: str, args_json: str) -> list[StreamDelta]:
    """A tool call streamed the way providers do: id and name first, then argument fragments."""
    middle = len(args_json) // 2
    return [StreamDelta(tool_call=ToolCallChunk(0, id=call_id, name=name)),
            StreamDelta(tool_call=ToolCallChunk(0, args=args_json[:middle])),
            StreamDelta(tool_call=ToolCallChunk(0, args=args_json[middle:])),
            StreamDelta(finish="tool_calls")]


def turn(gateway, tools, recorder, *, text_in="go", yes=True, **options):
    history = [{"role": "system", "content": "sys"}]
    reply = run_turn(history, text_in, gateway=gateway, tools=tools,
                     approver=Approver.for_tools(tools, yes=yes), emit=recorder, **options)
    return history, reply


def test_round_one_emits_the_logged_events_in_contract_order(recorder):
    history, reply = turn(MockGateway(), fake_tools(run_command=FAILED_RUN), recorder,
                          text_in="run the tests and tell me which case fails")
    logged = [e for e in recorder.events if isinstance(e, (MessageAdded, UsageReported, ToolFinished))]
    described = [type(e).__name__ + (":" + e.message["role"] if isinstance(e, MessageAdded) else "")
                 for e in logged]
    assert described == ["MessageAdded:user", "UsageReported", "MessageAdded:assistant", "ToolFinished",
                         "MessageAdded:tool", "UsageReported", "MessageAdded:assistant"]
    started = recorder.kinds().index("ToolStarted")
    assert recorder.kinds()[started + 1] == "ToolFinished"  # started after the assistant message
    assert recorder.kinds().index("MessageAdded") < recorder.kinds().index("TextDelta")
    assert "test_divide_by_zero" in reply
    assert [m["role"] for m in history] == ["system", "user", "assistant", "tool", "assistant"]
    assert "tool_calls" not in history[-1]  # omitted when empty


def test_streamed_chunks_merge_into_one_call_with_parsed_args(recorder):
    gateway = Scripted(call("c1", "read_file", '{"path": "calc.py"}'), text("done"))
    history, _ = turn(gateway, fake_tools(read_file="def add(a, b): ..."), recorder)
    assert history[2]["tool_calls"] == [{"id": "c1", "name": "read_file", "args": {"path": "calc.py"}}]
    assert recorder.of(ToolStarted)[0].args == {"path": "calc.py"}
    assert history[3] == {"role": "tool", "tool_call_id": "c1", "content": "def add(a, b): ..."}


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


def test_a_tool_exception_is_fed_back_not_raised(recorder):
    from mca.tools.base import ToolError
    gateway = Scripted(call("c1", "read_file", '{"path": "x"}'), text("ok"))
    history, _ = turn(gateway, fake_tools(read_file=ToolError("x is not a file")), recorder)
    assert history[3]["content"] == "error: x is not a file"


def test_an_unknown_tool_is_an_error_result(recorder):
    gateway = Scripted(call("c1", "launch_rocket", "{}"), text("ok"))
    history, _ = turn(gateway, fake_tools(), recorder)
    assert history[3]["content"].startswith("error: no tool named 'launch_rocket'")


def test_a_denied_call_is_a_result_blocked_by_approval(recorder):
    gateway = Scripted(call("c1", "run_command", '{"command": "rm -rf /"}'), text("ok"))
    history, _ = turn(gateway, fake_tools(run_command="ran!"), recorder, yes=False)
    finished = recorder.of(ToolFinished)[0]
    assert (finished.ok, finished.blocked_by) == (False, "approval")
    assert history[3]["content"].startswith("denied:")


def test_gateway_errors_are_retried_with_growing_pauses(recorder):
    pauses: list[float] = []
    gateway = Scripted(GatewayError("busy"), GatewayError("busy"), text("finally"))
    _, reply = turn(gateway, fake_tools(), recorder, sleep=pauses.append)
    assert reply == "finally" and pauses == [0.5, 1.0]
    retried = recorder.of(ErrorOccurred)  # each failed attempt is an error worth logging, none ends the turn
    assert [e.retrying for e in retried] == [True, True] and all(e.where == "gateway" for e in retried)
    assert "busy" in retried[0].message and "0.5 s" in retried[0].message


def test_after_the_last_retry_the_failure_is_reported_and_the_turn_ends(recorder):
    pauses: list[float] = []
    gateway = Scripted(*[GatewayError("down")] * 4)
    history, reply = turn(gateway, fake_tools(), recorder, sleep=pauses.append, retries=3)
    *retried, error = recorder.of(ErrorOccurred)
    assert len(retried) == 3 and all(e.retrying for e in retried) and not error.retrying
    assert error.where == "gateway" and "down" in error.message
    assert len(pauses) == 3 and reply == "" and history[-1]["role"] == "user"


def test_a_non_retryable_error_is_not_retried(recorder):
    pauses: list[float] = []
    gateway = Scripted(GatewayError("bad key", retryable=False))
    turn(gateway, fake_tools(), recorder, sleep=pauses.append)
    assert pauses == [] and len(recorder.of(ErrorOccurred)) == 1


def test_backoff_doubles_and_is_capped():
    assert [backoff_delay(n) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]


def test_the_number_of_rounds_is_capped(recorder):
    gateway = Scripted(*[call(f"c{n}", "read_file", f'{{"path": "f{n}"}}') for n in range(10)])
    turn(gateway, fake_tools(read_file="x"), recorder, max_rounds=3)
    assert len(gateway.requests) == 3
    assert recorder.of(ErrorOccurred)[-1].where == "loop"


def test_the_same_call_a_third_time_is_blocked_by_the_loop_guard(recorder):
    same = '{"path": "calc.py"}'
    gateway = Scripted(call("c1", "read_file", same), call("c2", "read_file", same),
                       call("c3", "read_file", same), text("giving up"))
    turn(gateway, fake_tools(read_file="x"), recorder)
    assert [f.blocked_by for f in recorder.of(ToolFinished)] == [None, None, "loop_guard"]


def test_usage_is_estimated_when_the_provider_reports_none(recorder):
    turn(Scripted(text("hi")), fake_tools(), recorder)
    (usage,) = recorder.of(UsageReported)
    assert usage.input_tokens > 0 and usage.output_tokens > 0


def test_reported_usage_is_passed_on(recorder):
    turn(Scripted([StreamDelta(text="hi"), StreamDelta(usage=Usage(11, 3))]), fake_tools(), recorder)
    assert recorder.of(UsageReported) == [UsageReported(11, 3)]


def test_ctrl_c_during_a_tool_leaves_every_call_answered(recorder):
    gateway = Scripted(call("c1", "run_command", '{"command": "sleep"}'))
    history, reply = turn(gateway, fake_tools(run_command=KeyboardInterrupt()), recorder)
    assert history[-1] == {"role": "tool", "tool_call_id": "c1",
                           "content": "error: cancelled by the user before it finished"}
    assert recorder.of(ErrorOccurred)[-1].message == "cancelled by the user" and reply == ""


@pytest.mark.parametrize("args_json", ['[1, 2]', '"text"'])
def test_args_that_are_not_an_object_are_refused(recorder, args_json):
    history, _ = turn(Scripted(call("c1", "read_file", args_json), text("ok")), fake_tools(read_file="x"), recorder)
    assert history[3]["content"].startswith("error: the arguments must be a JSON object")
