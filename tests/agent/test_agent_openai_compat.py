"""The optional real gateway, against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mca.agent.events import UsageReported
from mca.agent.loop import run_turn
from mca.gateway import MockGateway, gateway_config, make_gateway
from mca.gateway.base import GatewayError
from mca.gateway.openai_compat import OpenAICompatGateway, to_provider
from mca.tools.approval import Approver
from mca.tools.base import Tool
from mca.tools.registry import ToolRegistry

CHUNKS = [
    {"choices": [{"index": 0, "delta": {"content": "Reading "}}]},
    {"choices": [{"index": 0, "delta": {"content": "it."}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_a", "function": {"name": "read_file", "arguments": ""}}]}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"pa'}}]}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 'th": "a.py"}'}}]}}]},
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    {"choices": [], "usage": {"prompt_tokens": 42, "completion_tokens": 7}},
]


class FakeServer:
    """Answers each POST with the next prepared (status, body) and keeps the requests."""

    def __init__(self, responses):
        self.responses = list(responses)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers["Content-Length"])
                server.requests.append({"path": self.path, "auth": self.headers["Authorization"],
                                        "body": json.loads(self.rfile.read(length))})
                status, body = server.responses.pop(0)
                self.send_response(status)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def sse(chunks) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


@pytest.fixture
def server_with():
    servers = []

    def start(*responses):
        servers.append(FakeServer(responses))
        return servers[-1]
    yield start
    for server in servers:
        server.close()


def test_a_streamed_tool_round_goes_through_the_loop(server_with, recorder):
    final = [{"choices": [{"index": 0, "delta": {"content": "a.py is short."}, "finish_reason": "stop"}]}]
    server = server_with((200, sse(CHUNKS)), (200, sse(final)))
    gateway = OpenAICompatGateway("k-123", server.url, "test-model", timeout=5)
    tools = ToolRegistry([Tool("read_file", "read", {"type": "object", "properties": {"path": {"type": "string"}}},
                               lambda args: "x = 1\n", read_only=True)])
    history = [{"role": "system", "content": "sys"}]
    reply = run_turn(history, "read a.py", gateway=gateway, tools=tools,
                     approver=Approver.for_tools(tools), emit=recorder)
    assert reply == "a.py is short."
    assert history[2]["tool_calls"] == [{"id": "call_a", "name": "read_file", "args": {"path": "a.py"}}]
    assert recorder.of(UsageReported)[0] == UsageReported(42, 7)
    first, second = server.requests
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer k-123"
    assert first["body"]["stream"] is True and first["body"]["tools"][0]["function"]["name"] == "read_file"
    sent_call = second["body"]["messages"][2]["tool_calls"][0]
    assert sent_call["function"] == {"name": "read_file", "arguments": '{"path": "a.py"}'}
    assert second["body"]["messages"][3] == {"role": "tool", "content": "x = 1\n", "tool_call_id": "call_a"}


@pytest.mark.parametrize("status, retryable", [(429, True), (503, True), (401, False)])
def test_http_errors_become_gateway_errors(server_with, status, retryable):
    server = server_with((status, b'{"error": "nope"}'))
    gateway = OpenAICompatGateway("k", server.url, "m", timeout=5)
    with pytest.raises(GatewayError) as error:
        list(gateway.stream([{"role": "user", "content": "hi"}], []))
    assert error.value.retryable is retryable and str(status) in str(error.value)


def test_an_unreachable_server_is_a_retryable_gateway_error():
    server = FakeServer([])
    url = server.url
    server.close()
    with pytest.raises(GatewayError) as error:
        list(OpenAICompatGateway("k", url, "m", timeout=5).stream([], []))
    assert error.value.retryable


def test_plain_messages_omit_empty_tool_fields():
    assert to_provider({"role": "user", "content": "hi"}) == {"role": "user", "content": "hi"}


def test_the_mock_is_used_when_mock_is_set_or_no_key():
    assert isinstance(make_gateway(env={"MOCK": "1", "MCA_API_KEY": "k"}), MockGateway)
    assert isinstance(make_gateway(env={}), MockGateway)
    assert isinstance(make_gateway(env={"MCA_API_KEY": "k"}), OpenAICompatGateway)
    assert gateway_config({"MCA_API_KEY": "k", "MCA_MODEL": "m", "MCA_BASE_URL": "http://h/v1"}) == \
        {"gateway": "openai-compatible", "model": "m", "base_url": "http://h/v1"}   # never the key
    frozen = make_gateway({"gateway": "openai-compatible", "model": "old", "base_url": "http://h/v1"},
                          env={"MCA_API_KEY": "k", "MCA_MODEL": "new"})
    assert isinstance(frozen, OpenAICompatGateway) and frozen.model == "old"
