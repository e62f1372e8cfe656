"""The fake model server against a client nobody here wrote: the official `openai` SDK.

The checks hold a student's client to the fake; these tests hold the fake to the real
protocol. The SDK (base_url on 127.0.0.1, no retries, no proxy from the environment)
reads every reply helper and stream shape the checks use exactly as the checks intend,
and gets, for every request a real provider refuses, the provider's status and error
object (`message`, `type`, `param`, `code`), as its own exception classes.
"""

from __future__ import annotations

import json
import random

import openai
import pytest

from grader.checkkit.chain import forget_refusals, refusal_note
from grader.checkkit.fakeserver import (FakeModelServer, SSEStream, error_body, http_date, reply_json, reply_status,
                                        reply_stream)

USER = [{"role": "user", "content": "hi"}]
TEXT = ["Hé", "llo, ", "世界 ", "🙂", "!"]  # 1- to 4-byte characters
CALLS = [("call_a", "read_file", json.dumps({"path": "calc.py"})),
         ("call_b", "list_dir", json.dumps({"path": ".", "glob": "*.py 世界"}, ensure_ascii=False))]
TOOLS = [{"type": "function", "function": {"name": name, "description": name,
                                           "parameters": {"type": "object", "properties": {}}}}
         for name in ("read_file", "list_dir")]


def sdk(server: FakeModelServer, key: str = "sk-test") -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key=key, max_retries=0, timeout=10,
                         http_client=openai.DefaultHttpxClient(trust_env=False))


def streamed(stream: SSEStream, *, usage: bool = True) -> list:
    """The chunks the SDK makes of `stream` (served to a request that asks for usage, or not)."""
    options = {"stream_options": {"include_usage": True}} if usage else {}
    with FakeModelServer([reply_stream(stream)]) as server:
        chunks = list(sdk(server).chat.completions.create(model="fake-model", messages=USER, stream=True,
                                                          **options))
        assert server.problems == []
    return chunks


def text_of(chunks: list) -> str:
    return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)


def calls_of(chunks: list) -> dict[int, list]:
    """Fragments assembled by index, as the checks ask a student to: {index: [id, name, arguments]}."""
    calls: dict[int, list] = {}
    for chunk in chunks:
        for part in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
            call = calls.setdefault(part.index, ["", "", ""])
            call[0] = call[0] or part.id or ""
            call[1] = call[1] or (part.function.name if part.function else "") or ""
            call[2] += (part.function.arguments if part.function else "") or ""
    return calls


def usage_of(chunks: list) -> list[tuple[int, int]]:
    return [(c.usage.prompt_tokens, c.usage.completion_tokens) for c in chunks if c.usage is not None]


# -- replies --------------------------------------------------------------------------

def test_non_streamed_replies_parse_as_chat_completions():
    script = [reply_json("Hello 世界", model="m-1"), reply_json(None, tool_calls=[
        {"id": "call_1", "name": "read_file", "arguments": {"path": "a 世界.py"}}]), reply_json("")]
    with FakeModelServer(script) as server:
        client = sdk(server)
        text, calls, empty = (client.chat.completions.create(model="fake-model", messages=USER) for _ in script)
        assert server.problems == []
    assert (text.model, text.choices[0].message.content, text.choices[0].finish_reason) == ("m-1", "Hello 世界", "stop")
    assert text.usage.total_tokens == 15
    (call,) = calls.choices[0].message.tool_calls
    assert calls.choices[0].message.content is None and calls.choices[0].finish_reason == "tool_calls"
    assert (call.id, call.function.name, json.loads(call.function.arguments)) == ("call_1", "read_file",
                                                                                  {"path": "a 世界.py"})
    assert empty.choices[0].message.content == ""


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_framing_feature_reads_as_the_same_chunks(newline):
    stream = SSEStream(newline=newline).comment().role().text(*TEXT[:2])
    stream.event({**stream._head(), "choices": [{"index": 0, "delta": {"content": TEXT[2]}, "finish_reason": None}]},
                 multiline=True, comment=(1, "ping"))
    stream.event({**stream._head(), "choices": [{"index": 0, "delta": {"content": TEXT[3]}, "finish_reason": None}]},
                 space=False)
    stream.comment("OPENROUTER PROCESSING").text(TEXT[4]).finish().usage(7, 3).done()
    chunks = streamed(stream)
    assert text_of(chunks) == "".join(TEXT) and usage_of(chunks) == [(7, 3)]
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"


def test_writes_split_anywhere_even_inside_a_character_read_the_same():
    stream = SSEStream().role().text(*TEXT).tool_calls(CALLS, pieces=3).finish("tool_calls").usage(12, 34).done()
    whole = streamed(stream)
    data = stream.to_bytes()
    stream.split_at(*random.Random(7).sample(range(1, len(data)), 60))
    cut = streamed(stream)
    assert [c.model_dump() for c in cut] == [c.model_dump() for c in whole]
    assert text_of(cut) == "".join(TEXT) and calls_of(cut) == {0: list(CALLS[0]), 1: list(CALLS[1])}


def test_parallel_calls_go_one_after_the_other_as_the_sdk_stream_helper_expects():
    stream = SSEStream().role().text("Let me look.").tool_calls(CALLS, pieces=3).finish("tool_calls").usage().done()
    indexes = [json.loads(p)["choices"][0]["delta"]["tool_calls"][0]["index"] for p in stream.payloads()
               if '"tool_calls":[' in p]
    assert indexes == [0, 0, 0, 1, 1, 1]
    with FakeModelServer([reply_stream(stream)]) as server:
        done = []
        with sdk(server).chat.completions.stream(model="fake-model", messages=USER, tools=TOOLS) as events:
            for event in events:
                if event.type == "tool_calls.function.arguments.done":
                    done.append((event.index, event.name, event.arguments))
            final = events.get_final_completion()
        (request,) = server.requests
    # every call's arguments are whole when the helper says they are done, in index order
    assert done == [(0, CALLS[0][1], CALLS[0][2]), (1, CALLS[1][1], CALLS[1][2])]
    assert [(c.id, c.function.name, c.function.arguments) for c in final.choices[0].message.tool_calls] == \
        [tuple(call) for call in CALLS]
    assert final.choices[0].message.content == "Let me look."
    assert request.stream and request.json["tools"] == TOOLS


def test_interleaved_calls_assemble_by_index():
    """The robustness case a check about assembling by index uses: fragments 0, 1, 0, 1, blank ids."""
    stream = SSEStream().role().tool_calls(CALLS, pieces=3, interleave=True).finish("tool_calls").done()
    chunks = streamed(stream)
    assert [c.choices[0].delta.tool_calls[0].index for c in chunks if c.choices and c.choices[0].delta.tool_calls] \
        == [0, 1, 0, 1, 0, 1]
    assert calls_of(chunks) == {0: list(CALLS[0]), 1: list(CALLS[1])}


def test_the_usage_chunk_comes_only_to_a_request_that_asked_for_it():
    stream = SSEStream().role().text(*TEXT).finish().usage(21, 8).done().split_at(40, 700, 900)
    asked, not_asked = streamed(stream), streamed(stream, usage=False)
    assert usage_of(asked) == [(21, 8)] and [c.choices for c in asked if c.usage is not None] == [[]]
    assert usage_of(not_asked) == [] and all(c.choices for c in not_asked)
    assert text_of(asked) == text_of(not_asked) == "".join(TEXT)


@pytest.mark.parametrize("ending", ["no [DONE]", "dropped"])
def test_a_stream_that_ends_early_is_what_the_sdk_sees(ending):
    stream = SSEStream().role().text("Hel", "lo")
    stream = stream if ending == "no [DONE]" else stream.pause(0.05).drop()
    with FakeModelServer([reply_stream(stream)]) as server:
        chunks, failure = [], None
        try:
            for chunk in sdk(server).chat.completions.create(model="fake-model", messages=USER, stream=True):
                chunks.append(chunk)
        except Exception as exc:  # the SDK's HTTP library's own error for a broken body  # noqa: BLE001
            failure = exc
    assert text_of(chunks) == "Hello"
    # the SDK does not insist on [DONE]; a broken chunked body is an error it raises
    assert (failure is None) == (ending == "no [DONE]")


def test_an_error_payload_mid_stream_is_raised_by_the_sdk():
    stream = SSEStream().role().text("Hel").error("The server had an error while processing your request.").done()
    with FakeModelServer([reply_stream(stream)]) as server:
        chunks = []
        with pytest.raises(openai.APIError) as raised:
            for chunk in sdk(server).chat.completions.create(model="fake-model", messages=USER, stream=True):
                chunks.append(chunk)
    assert text_of(chunks) == "Hel" and raised.value.message.startswith("The server had an error")


# -- statuses and Retry-After ------------------------------------------------------------

@pytest.mark.parametrize("status, kind, exception", [
    (400, "invalid_request_error", openai.BadRequestError), (401, "invalid_request_error", openai.AuthenticationError),
    (404, "invalid_request_error", openai.NotFoundError), (429, "rate_limit_error", openai.RateLimitError),
    (500, "server_error", openai.InternalServerError), (503, "server_error", openai.InternalServerError)])
def test_a_scripted_status_is_the_sdks_error_with_the_servers_message(status, kind, exception):
    body = error_body(f"failed 世界 {status}", kind, code="some_code")
    with FakeModelServer([reply_status(status, body)]) as server, pytest.raises(exception) as raised:
        sdk(server).chat.completions.create(model="fake-model", messages=USER)
    error = raised.value
    assert (error.status_code, error.body, error.code, error.type) == (status, body["error"], "some_code", kind)


def test_retry_after_in_seconds_and_as_an_http_date_are_read_by_the_sdk():
    client = openai.OpenAI(api_key="x", base_url="http://127.0.0.1:9/v1")
    script = [reply_status(429, headers={"Retry-After": "2"}), reply_status(503, headers={"Retry-After": http_date(4)})]
    with FakeModelServer(script) as server:
        seen = []
        for _ in script:
            with pytest.raises(openai.APIStatusError) as raised:
                sdk(server).chat.completions.create(model="fake-model", messages=USER)
            seen.append(client._parse_retry_after_header(raised.value.response.headers))
    assert seen[0] == 2.0 and 3.0 - 1.5 <= seen[1] <= 5.0


def test_a_proxys_html_page_goes_out_as_html_and_is_the_sdks_error():
    page = "<html><body><h1>502</h1>Bad gateway 世界</body></html>"
    with FakeModelServer([reply_status(502, text=page, headers={"Content-Type": "text/html; charset=utf-8"})]) \
            as server, pytest.raises(openai.InternalServerError) as raised:
        sdk(server).chat.completions.create(model="fake-model", messages=USER)
    assert raised.value.response.headers["content-type"].startswith("text/html")
    assert raised.value.response.text == page


# -- what a provider refuses ----------------------------------------------------------------

ASKS = {"role": "assistant", "content": None,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}]}
ANSWER = {"role": "tool", "tool_call_id": "call_1", "content": "ok"}

REFUSED = [  # (what, create's keyword arguments, status, exception, param, code, words of the message)
    ("empty messages", {"messages": []}, 400, openai.BadRequestError, "messages", "empty_array", "empty array"),
    ("unknown role", {"messages": [{"role": "robot", "content": "x"}]}, 400, openai.BadRequestError,
     "messages[0].role", "invalid_value", "Supported values"),
    ("a tool message answering no call", {"messages": [*USER, {**ANSWER, "tool_call_id": "call_9"}]}, 400,
     openai.BadRequestError, "messages.[1].role", None, "must be a response to a preceeding message"),
    ("a tool message after a user message", {"messages": [*USER, ASKS, ANSWER, *USER, ANSWER]}, 400,
     openai.BadRequestError, "messages.[4].role", None, "role 'tool'"),
    ("empty tool_calls", {"messages": [*USER, {"role": "assistant", "content": "x", "tool_calls": []}, *USER]}, 400,
     openai.BadRequestError, "messages[1].tool_calls", "empty_array", "empty array"),
    ("a call left unanswered", {"messages": [*USER, ASKS, *USER]}, 400, openai.BadRequestError, "messages", None,
     "'call_1'"),
    ("empty tools", {"messages": USER, "tools": []}, 400, openai.BadRequestError, "tools", "empty_array",
     "empty array"),
    ("stream_options without stream", {"messages": USER, "stream_options": {"include_usage": True}}, 400,
     openai.BadRequestError, "stream_options", None, "only allowed when 'stream' is enabled"),
    ("an unknown parameter", {"messages": USER, "extra_body": {"stream_option": {"include_usage": True}}}, 400,
     openai.BadRequestError, None, None, "Unrecognized request argument supplied: stream_option"),
    ("no Authorization header", {"messages": USER, "extra_headers": {"Authorization": openai.Omit()}}, 401,
     openai.AuthenticationError, None, None, "You didn't provide an API key"),
    ("a key without Bearer", {"messages": USER, "extra_headers": {"Authorization": "sk-test"}}, 401,
     openai.AuthenticationError, None, None, "You didn't provide an API key"),
]


@pytest.mark.parametrize("what, arguments, status, exception, param, code, words", REFUSED,
                         ids=[case[0] for case in REFUSED])
def test_what_a_provider_refuses_gets_its_status_and_error_object(what, arguments, status, exception, param, code,
                                                                   words):
    forget_refusals()
    with FakeModelServer([reply_json("never sent")]) as server:
        with pytest.raises(exception) as raised:
            sdk(server).chat.completions.create(model="fake-model", **arguments)
        problems = server.problems
    error = raised.value
    assert error.status_code == status
    assert set(error.body) == {"message", "type", "param", "code"}
    assert (error.body["type"], error.param, error.code) == ("invalid_request_error", param, code)
    assert words in error.body["message"]
    assert len(problems) == 1 and problems[0].startswith(f"refused a request with HTTP {status}")
    note = refusal_note()
    assert note is not None and f"HTTP {status}" in note
    forget_refusals()
    assert refusal_note() is None


def test_a_lenient_server_takes_what_a_provider_refuses_and_a_strict_one_takes_a_valid_request():
    with FakeModelServer([reply_json(str(n)) for n in range(len(REFUSED))], lenient=True) as server:
        client = sdk(server)
        for _, arguments, *_ in REFUSED:
            assert client.chat.completions.create(model="fake-model", **arguments).choices[0].message.content
        assert server.problems == []
    valid = [*USER, ASKS, ANSWER, {"role": "assistant", "content": "done"}, *USER]
    with FakeModelServer([reply_json("fine"), reply_stream(SSEStream().text("ok").done())]) as server:
        client = sdk(server)
        assert client.chat.completions.create(model="fake-model", messages=valid, tools=TOOLS,
                                              tool_choice="auto", temperature=0).choices[0].message.content == "fine"
        chunks = list(client.chat.completions.create(model="fake-model", messages=valid, stream=True,
                                                     stream_options={"include_usage": True}))
        assert text_of(chunks) == "ok" and server.problems == []

