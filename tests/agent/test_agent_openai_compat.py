"""The optional real gateway, against a fake OpenAI-compatible server on 127.0.0.1.

Day 1 posts and reads one chat completion (``complete``); from day 2 the reply is
streamed as server-sent events (``stream``); day 6 reads ``Retry-After``.
"""

from __future__ import annotations

import json

import pytest

from mca.gateway import MockGateway, gateway_config, make_gateway
from mca.gateway.base import GatewayError
from mca.gateway.openai_compat import OpenAICompatGateway, build_request, parse_reply, to_provider

from .days import DAY, since, until
from .fakeserver import closed_port_url, completion, error_body, sse

CHUNKS = [
    {"choices": [{"index": 0, "delta": {"content": "Reading "}}]},
    {"choices": [{"index": 0, "delta": {"content": "it."}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_a", "function": {"name": "read_file", "arguments": ""}}]}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "", "function": {"arguments": '{"pa'}}]}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 'th": "a.py"}'}}]}}]},
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    {"choices": [], "usage": {"prompt_tokens": 42, "completion_tokens": 7}},
]
HELLO = [{"role": "user", "content": "hi"}]


def gateway(url: str, key: str = "k") -> OpenAICompatGateway:
    return OpenAICompatGateway(key, url, "test-model", timeout=5)


def ask(gw: OpenAICompatGateway, messages=HELLO):
    """One request the way this day makes it: a reply's text (day 1) or its deltas (day 2+)."""
    return gw.complete(messages) if DAY == 1 else list(gw.stream(messages, []))


# --- the request and the reply (every day) ----------------------------------------

@pytest.mark.parametrize("base", ["http://h:9", "http://h:9/", "http://h:9/v1", "http://h:9/v1/"])
def test_the_request_posts_to_one_v1_chat_completions_with_a_bearer_key(base):
    request = build_request(base, "k-1", "m", HELLO)
    assert (request.get_method(), request.full_url) == ("POST", "http://h:9/v1/chat/completions")
    assert request.get_header("Authorization") == "Bearer k-1"
    assert json.loads(request.data) == {"model": "m", "messages": HELLO}


def test_the_reply_is_the_first_choices_message_content():
    assert parse_reply(completion("Hello.")) == "Hello."
    assert parse_reply(completion(None)) == ""  # a reply with no text is empty, not an error
    with pytest.raises(GatewayError, match="not a chat completion"):
        parse_reply(b'{"id": "x"}')


def test_plain_messages_omit_empty_tool_fields():
    assert to_provider({"role": "user", "content": "hi"}) == {"role": "user", "content": "hi"}
    call = {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "name": "f", "args": {"a": 1}}]}
    assert to_provider(call)["tool_calls"] == [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}]


def test_the_mock_is_used_when_mock_is_set_or_no_key():
    assert isinstance(make_gateway(env={"MOCK": "1", "MCA_API_KEY": "k"}), MockGateway)
    assert isinstance(make_gateway(env={}), MockGateway)
    assert isinstance(make_gateway(env={"MCA_API_KEY": "k"}), OpenAICompatGateway)
    assert gateway_config({"MCA_API_KEY": "k", "MCA_MODEL": "m", "MCA_BASE_URL": "http://h/v1"}) == \
        {"gateway": "openai-compatible", "model": "m", "base_url": "http://h/v1"}   # never the key
    frozen = make_gateway({"gateway": "openai-compatible", "model": "old", "base_url": "http://h/v1"},
                          env={"MCA_API_KEY": "k", "MCA_MODEL": "new"})
    assert isinstance(frozen, OpenAICompatGateway) and frozen.model == "old"


@pytest.mark.parametrize("status", [400, 401, 429, 500, 503])
def test_an_http_error_is_one_line_with_the_status_and_the_servers_message(server_with, status):
    server = server_with((status, error_body("the key\nis   wrong"), {"Content-Type": "application/json"}))
    with pytest.raises(GatewayError) as error:
        ask(gateway(server.url))
    assert str(error.value) == f"HTTP {status}: the key is wrong" and error.value.status == status
    assert not error.value.transient  # the status decides (day 6), not a guess


def test_an_unreachable_server_is_a_transient_error_naming_the_url():
    url = closed_port_url()
    with pytest.raises(GatewayError) as error:
        ask(gateway(url))
    assert error.value.transient and error.value.status is None
    assert f"cannot reach {url}/chat/completions" in str(error.value) and "\n" not in str(error.value)


# --- day 1: one request, one whole reply -------------------------------------------

@until(1, "from day 2 the gateway streams")
def test_day_one_posts_the_whole_history_and_reads_one_completion(server_with):
    server = server_with((200, completion("Hi there."), {"Content-Type": "application/json"}),
                         (200, completion(None), {"Content-Type": "application/json"}))
    history = [{"role": "system", "content": "sys"}, {"role": "user", "content": "hello"}]
    assert gateway(server.url, "k-123").complete(history) == "Hi there."
    assert gateway(server.url).complete(history) == ""
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer k-123"
    assert first["body"] == {"model": "test-model", "messages": history}  # not streamed


# --- day 2+: a streamed reply --------------------------------------------------------

@since(2, "streaming")
def test_a_streamed_reply_becomes_deltas_and_the_request_asks_for_usage(server_with):
    from mca.gateway.base import StreamDelta, ToolCallChunk, Usage

    server = server_with((200, sse(CHUNKS)))
    deltas = list(gateway(server.url, "k-123").stream(HELLO, [{"name": "read_file", "parameters": {}}]))
    assert deltas == [
        StreamDelta(text="Reading "), StreamDelta(text="it."),
        StreamDelta(tool_call=ToolCallChunk(0, "call_a", "read_file", "")),
        StreamDelta(tool_call=ToolCallChunk(0, None, None, '{"pa')),   # "id": "" is no id
        StreamDelta(tool_call=ToolCallChunk(0, None, None, 'th": "a.py"}')),
        StreamDelta(finish="tool_calls"), StreamDelta(usage=Usage(42, 7))]
    body = server.requests[0]["body"]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["tools"] == [{"type": "function", "function": {"name": "read_file", "parameters": {}}}]


@since(2, "streaming")
def test_a_server_that_ignores_stream_still_gives_the_reply(server_with):
    server = server_with((200, completion("All at once."), {"Content-Type": "application/json"}))
    deltas = list(gateway(server.url).stream(HELLO, []))
    assert "".join(d.text for d in deltas) == "All at once." and deltas[-1].finish == "stop"


@since(2, "streaming")
def test_a_stream_cut_before_done_is_a_transient_error(server_with):
    server = server_with((200, sse(CHUNKS[:2], done=False)))
    with pytest.raises(GatewayError, match="cut") as error:
        list(gateway(server.url).stream(HELLO, []))
    assert error.value.transient


@since(2, "streaming")
def test_an_error_payload_mid_stream_is_named(server_with):
    body = sse(CHUNKS[:1], done=False) + b'data: {"error": {"message": "overloaded"}}\n\n'
    server = server_with((200, body))
    with pytest.raises(GatewayError, match="mid-stream: overloaded"):
        list(gateway(server.url).stream(HELLO, []))


@since(3, "the tool loop")
def test_a_streamed_tool_round_goes_through_the_loop(server_with, recorder):
    from mca.agent.events import UsageReported
    from mca.agent.loop import run_turn
    from mca.tools.base import Tool
    from mca.tools.registry import ToolRegistry

    final = [{"choices": [{"index": 0, "delta": {"content": "a.py is short."}, "finish_reason": "stop"}]}]
    server = server_with((200, sse(CHUNKS)), (200, sse(final)))
    tools = ToolRegistry([Tool("read_file", "read", {"type": "object", "properties": {"path": {"type": "string"}}},
                               lambda args: "x = 1\n", read_only=True)])
    options = {}
    if DAY >= 5:
        from mca.tools.approval import Approver
        options["approver"] = Approver.for_tools(tools)
    history = [{"role": "system", "content": "sys"}]
    reply = run_turn(history, "read a.py", gateway=gateway(server.url), tools=tools, emit=recorder, **options)
    assert reply == "a.py is short."
    assert history[2]["tool_calls"] == [{"id": "call_a", "name": "read_file", "args": {"path": "a.py"}}]
    assert recorder.of(UsageReported)[0] == UsageReported(42, 7)
    second = server.requests[1]["body"]
    sent_call = second["messages"][2]["tool_calls"][0]
    assert sent_call["function"] == {"name": "read_file", "arguments": '{"path": "a.py"}'}
    assert second["messages"][3] == {"role": "tool", "content": "x = 1\n", "tool_call_id": "call_a"}


# --- day 6: Retry-After ----------------------------------------------------------------

@since(6, "Retry-After")
@pytest.mark.parametrize("header, expected", [("7", 7.0), ("0.5", 0.5), ("-3", 0.0), ("soon", None)])
def test_retry_after_seconds_travel_with_the_error(server_with, header, expected):
    server = server_with((429, error_body("slow down"), {"Content-Type": "application/json",
                                                          "Retry-After": header}))
    with pytest.raises(GatewayError) as error:
        list(gateway(server.url).stream(HELLO, []))
    assert error.value.status == 429 and error.value.retry_after == expected


@since(6, "Retry-After")
def test_retry_after_as_an_http_date_is_the_seconds_until_then():
    from freezegun import freeze_time

    from mca.gateway.openai_compat import retry_after_of

    class Refused(Exception):
        def __init__(self, value):
            self.headers = {"Retry-After": value}

    with freeze_time("2026-03-01 12:00:00"):
        assert retry_after_of(Refused("Sun, 01 Mar 2026 12:00:30 GMT")) == 30.0
        assert retry_after_of(Refused("Sun, 01 Mar 2026 11:00:00 GMT")) == 0.0   # a date gone by: now
    assert retry_after_of(Refused("")) is None and retry_after_of(ValueError("no headers")) is None


@since(6, "retries")
def test_the_loop_waits_as_long_as_retry_after_asks_then_tries_again(server_with, recorder, monkeypatch):
    from mca.agent.loop import run_turn
    from mca.tools.approval import Approver
    from mca.tools.registry import ToolRegistry

    final = [{"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}]
    server = server_with((429, error_body("busy"), {"Content-Type": "application/json", "Retry-After": "3"}),
                         (503, error_body("busy"), {"Content-Type": "application/json", "Retry-After": "900"}),
                         (200, sse(final)))
    pauses: list[float] = []
    tools = ToolRegistry([])
    reply = run_turn([{"role": "system", "content": "s"}], "hi", gateway=gateway(server.url), tools=tools,
                     approver=Approver.for_tools(tools), emit=recorder, sleep=pauses.append)
    assert reply == "ok" and len(server.requests) == 3
    assert pauses == [3.0, 120.0]  # as asked, and a request for 15 minutes is capped
