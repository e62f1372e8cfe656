"""Day 2's layers: a streamed reply collected into events and one message, and the screen
that sees only agent events."""

from __future__ import annotations

import io

import pytest

from .days import module_since, since, until

module_since(2, "streaming")

from mca.agent.events import ErrorOccurred, MessageAdded, TextDelta, UsageReported  # noqa: E402
from mca.agent.loop import collect, merge_chunk  # noqa: E402
from mca.gateway.base import StreamDelta, ToolCallChunk, Usage  # noqa: E402
from mca.gateway.chain import find_break  # noqa: E402
from mca.gateway.mock import MockGateway  # noqa: E402
from mca.screen import Screen  # noqa: E402


def chunk(index, id=None, name=None, args=""):
    return StreamDelta(tool_call=ToolCallChunk(index, id, name, args))


def test_text_streams_as_events_then_usage_then_one_message(recorder):
    history: list[dict] = []
    reply = collect(iter([StreamDelta(text="Hel"), StreamDelta(text="lo"), StreamDelta(usage=Usage(11, 3)),
                          StreamDelta(finish="stop")]), history, recorder)
    assert recorder.events == [TextDelta("Hel"), TextDelta("lo"), UsageReported(11, 3),
                               MessageAdded({"role": "assistant", "content": "Hello"})]
    assert reply.text == "Hello" and history == [{"role": "assistant", "content": "Hello"}]


def test_text_is_emitted_the_moment_it_arrives(recorder):
    def stream():
        yield StreamDelta(text="first")
        assert recorder.events == [TextDelta("first")], "the first piece was held back"
        yield StreamDelta(text=" second")
    collect(stream(), [], recorder)


def test_two_interleaved_calls_are_merged_by_index(recorder):
    history: list[dict] = []
    stream = [chunk(0, "c0", "read_file"), chunk(1, "c1", "grep"), chunk(0, "", None, '{"pa'),
              chunk(1, None, None, '{"pattern": '), chunk(0, args='th": "a.py"}'), chunk(1, args='"def"}'),
              StreamDelta(finish="tool_calls")]
    reply = collect(iter(stream), history, recorder)
    assert [(c.id, c.name, c.args) for c in reply.calls] == [
        ("c0", "read_file", {"path": "a.py"}), ("c1", "grep", {"pattern": "def"})]
    assert history[0]["tool_calls"] == [{"id": "c0", "name": "read_file", "args": {"path": "a.py"}},
                                        {"id": "c1", "name": "grep", "args": {"pattern": "def"}}]


def test_merge_chunk_keeps_the_first_id_and_name():
    pieces: dict = {}
    for piece in (ToolCallChunk(0, "c0", "f", ""), ToolCallChunk(0, "", "", "{}")):
        merge_chunk(pieces, piece)
    assert pieces[0]["id"] == "c0" and pieces[0]["name"] == "f" and "".join(pieces[0]["args"]) == "{}"


def test_usage_is_estimated_when_the_provider_reports_none(recorder):
    collect(iter([StreamDelta(text="hi")]), [{"role": "user", "content": "hello there"}], recorder)
    (usage,) = recorder.of(UsageReported)
    assert usage.input_tokens > 0 and usage.output_tokens > 0


@pytest.mark.parametrize("args_json, problem", [('{"path": ', "not valid JSON"),
                                                ('[1, 2]', "must be a JSON object")])
def test_bad_arguments_become_a_problem_not_a_crash(recorder, args_json, problem):
    reply = collect(iter([chunk(0, "c1", "read_file", args_json)]), [], recorder)
    (call,) = reply.calls
    assert call.args == {} and problem in call.problem


# --- the screen ------------------------------------------------------------------------

def screen() -> tuple[Screen, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Screen(out, err), out, err


def test_the_screen_prints_the_streamed_text_once_and_status_on_stderr():
    shown, out, err = screen()
    for event in [MessageAdded({"role": "user", "content": "hi"}), TextDelta("Hel"), TextDelta("lo."),
                  UsageReported(12, 3), MessageAdded({"role": "assistant", "content": "Hello."})]:
        shown.show(event)
    assert out.getvalue() == "Hello.\n"
    assert err.getvalue() == "  tokens: 12 in, 3 out\n"


def test_a_gateway_error_is_counted_for_the_exit_status():
    shown, out, err = screen()
    shown.show(ErrorOccurred("model request failed: HTTP 401: bad key", "gateway"))
    assert shown.errors == 1 and "error (gateway): model request failed: HTTP 401" in err.getvalue()
    assert out.getvalue() == ""


@since(6, "retries")
def test_a_retried_error_is_shown_but_not_counted():
    shown, _, err = screen()
    shown.show(ErrorOccurred("model request failed: HTTP 503; trying again in 0.5 s", "gateway", retrying=True))
    assert shown.errors == 0 and "trying again" in err.getvalue()


# --- day 2's turn: no tools yet -----------------------------------------------------------

@until(2, "day 3 runs the tools")
def test_a_call_on_day_two_is_answered_with_no_tools_yet_and_the_history_stays_valid(recorder):
    from mca.agent.loop import run_turn

    history = [{"role": "system", "content": "sys"}]
    reply = run_turn(history, "read calc.py", gateway=MockGateway(), emit=recorder)
    assert reply == "I will read calc.py."
    assert history[-1] == {"role": "tool", "tool_call_id": "call_1", "content": "error: this agent has no tools yet"}
    assert find_break(history) is None
    shown, _, err = screen()
    shown.show(MessageAdded(history[2]))
    assert 'the model asked for read_file({"path": "calc.py"}); no tool can run yet' in err.getvalue()


@until(2, "day 3 runs the tools")
def test_a_failed_request_on_day_two_is_one_error_event(recorder):
    from mca.agent.loop import run_turn
    from mca.gateway.base import GatewayError

    class Down:
        def stream(self, messages, tools=None):
            raise GatewayError("HTTP 503: busy", status=503)
            yield

    assert run_turn([{"role": "system", "content": "s"}], "hi", gateway=Down(), emit=recorder) == ""
    assert recorder.of(ErrorOccurred) == [ErrorOccurred("model request failed: HTTP 503: busy", "gateway")]


@since(3, "tools")
def test_the_screen_shows_tool_calls_and_what_blocked_them():
    from mca.agent.events import ToolFinished, ToolStarted

    shown, out, err = screen()
    shown.show(ToolStarted("c1", "run_command", {"command": "make test"}))
    shown.show(ToolFinished("c1", "run_command", True, 12, 300, True))
    shown.show(ToolFinished("c2", "edit_file", False, 0, 40, False, "approval"))
    assert err.getvalue().splitlines() == ["  -> run_command: make test",
                                           "  <- run_command ok (12 ms, 300 chars, truncated)",
                                           "  <- edit_file blocked by approval"]
    assert out.getvalue() == ""
