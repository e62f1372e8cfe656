"""The fake model server: real clients see exactly what the checks claim they see.

Every test talks to it over a real socket: with urllib or http.client in this
process, with a raw socket where the bytes on the wire matter, and with the
reference gateway (`solutions/day-07-session-resume/mca/gateway/openai_compat.py`)
in a child process, the way grading runs a lab's agent. Time bounds are only
generous "it did not hang" limits.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import queue
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from werkzeug.serving import WSGIRequestHandler

from grader.checkkit import provider
from grader.checkkit.fakeserver import (FakeModelServer, Gate, SSEStream, http_date, reply_json, reply_status,
                                        reply_stream, valid_chain)

REFERENCE = Path(__file__).resolve().parents[2] / "solutions" / "day-07-session-resume"
USER = [{"role": "user", "content": "hi"}]
TEXT = ["Hé", "llo, ", "世界 ", "🙂", "!"]  # ASCII, Latin-1, CJK and an emoji: 1- to 4-byte characters


# -- clients -----------------------------------------------------------------------

def post(url: str, body: object = None, headers: dict | None = None, raw: bytes | None = None):
    """POST with urllib: (status, headers, body bytes), for errors too."""
    data = raw if raw is not None else json.dumps(body if body is not None else chat()).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "Authorization": "Bearer sk-test", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        with error:
            return error.code


def chat(messages: list | None = None, stream: bool = False, usage: bool = True) -> dict:
    """A valid request body; a streamed one asks for the usage chunk unless `usage` is False."""
    body = {"model": "fake-model", "messages": messages or USER, "stream": stream}
    if stream and usage:
        body["stream_options"] = {"include_usage": True}
    return body


def sse_payloads(data: bytes) -> list[str]:
    """A small, correct SSE reader: the rules the checks hold a student's client to.

    Lines end in CRLF, LF or CR; a blank line dispatches the event; `:` starts a
    comment; one optional space follows the colon; several `data:` lines join
    with "\\n"; an event not ended by a blank line at EOF is not dispatched.
    """
    payloads, data_lines = [], []
    for line in re.split(r"\r\n|\r|\n", data.decode("utf-8")):
        if line == "":
            if data_lines:
                payloads.append("\n".join(data_lines))
            data_lines = []
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            if name == "data":
                data_lines.append(value[1:] if value.startswith(" ") else value)
    return payloads


def recv_until(sock: socket.socket, suffix: bytes) -> bytes:
    """Bytes from a raw socket until they end with `suffix` (its timeout bounds the wait)."""
    seen = b""
    while not seen.endswith(suffix):
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before {suffix!r}; got {seen[-80:]!r}"
        seen += chunk
    return seen


def texts(payloads: list[str]) -> str:
    """The reply text carried by a list of chunk payloads."""
    out = ""
    for payload in payloads:
        if payload != "[DONE]":
            for choice in json.loads(payload).get("choices", []):
                out += choice.get("delta", {}).get("content") or ""
    return out


REFERENCE_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from mca.gateway.base import GatewayError
from mca.gateway.openai_compat import OpenAICompatGateway
gateway = OpenAICompatGateway("sk-test", sys.argv[2], "fake-model", timeout=20)
try:
    for d in gateway.stream([{"role": "user", "content": "hi"}], []):
        c = d.tool_call
        out = ({"text": d.text} if d.text else {"call": [c.index, c.id, c.name, c.args]} if c
               else {"usage": [d.usage.input_tokens, d.usage.output_tokens]} if d.usage else {"finish": d.finish})
        print(json.dumps(out), flush=True)
except GatewayError as exc:
    print(json.dumps({"error": str(exc), "status": exc.status, "transient": exc.transient}), flush=True)
    sys.exit(1)
"""


def child(code: str, *args: str) -> subprocess.Popen:
    """A Python child, isolated like a lab's agent (no site, no kit paths, no bytecode written)."""
    return subprocess.Popen([sys.executable, "-I", "-S", "-B", "-c", code, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def reference(server: FakeModelServer) -> tuple[int, list[dict], str]:
    """Run the reference gateway against `server`: exit status, its deltas, its stderr."""
    proc = child(REFERENCE_CHILD, str(REFERENCE), server.base_url)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, [json.loads(line) for line in out.splitlines()], err


def merge_calls(deltas: list[dict]) -> dict[int, list]:
    """Tool-call fragments merged by index, the way a correct agent loop merges them."""
    calls: dict[int, list] = {}
    for d in deltas:
        if "call" in d:
            index, call_id, name, args = d["call"]
            merged = calls.setdefault(index, [None, None, ""])
            merged[0] = merged[0] or call_id or None
            merged[1] = merged[1] or name or None
            merged[2] += args
    return calls


# -- recording and routing -----------------------------------------------------------

def test_every_request_is_recorded_with_its_headers_body_and_arrival():
    with FakeModelServer([reply_json("one"), reply_json("two")]) as server:
        before = time.monotonic()
        post(server.base_url + "/chat/completions", chat(stream=False))
        post(server.base_url + "/chat/completions?x=1", chat([*USER, {"role": "assistant", "content": "one"}]))
        after = time.monotonic()
        first, second = server.requests
        assert server.env(model="m") == {"MCA_BASE_URL": server.root_url + "/v1",
                                         "MCA_API_KEY": provider.api_key(), "MCA_MODEL": "m"}
    assert (first.method, first.path, second.query) == ("POST", "/v1/chat/completions", "x=1")
    assert first.headers["Authorization"] == first.headers["authorization"] == "Bearer sk-test"
    assert "AUTHORIZATION" in first.headers and first.bearer == "sk-test"
    assert first.json == json.loads(first.body) == chat()
    assert (first.model, first.stream, first.messages) == ("fake-model", False, USER)  # what the client sent
    assert second.messages[-1] == {"role": "assistant", "content": "one"}
    assert before <= first.arrived <= second.arrived <= after


def test_the_model_and_key_a_lab_is_given_are_drawn_per_run_and_name_no_grader():
    """A lab must not recognise a graded run by MCA_MODEL or MCA_API_KEY: both come from the
    run's seed (the same seed, the same draw), from names a person's own settings hold."""
    try:
        drawn = {seed: provider.draw(seed) for seed in range(40)}
        assert provider.draw(7) == drawn[7] and provider.current() == drawn[7]
        assert len({d.model for d in drawn.values()}) > 5 and len({d.api_key for d in drawn.values()}) == 40
        for d in drawn.values():
            assert d.model in provider.MODELS
            assert not any(word in (d.model + d.api_key).lower() for word in ("fake", "test", "grader", "mock"))
        provider.draw(7)
        with FakeModelServer([reply_json("one")]) as server:
            env = server.env()
            assert (env["MCA_MODEL"], env["MCA_API_KEY"]) == (drawn[7].model, drawn[7].api_key)
            body = json.loads(post(server.base_url + "/chat/completions", chat(stream=False))[2])
        assert body["model"] == drawn[7].model and body["id"].startswith("chatcmpl-")
        assert provider.completion_id() != provider.completion_id()
    finally:
        provider.draw(0)


def test_a_doubled_v1_gets_a_404_like_a_provider_and_keeps_the_script():
    with FakeModelServer([reply_json("scripted")]) as server:
        status, _, body = post(server.base_url + "/v1/chat/completions")
        assert status == 404
        assert "/v1/v1/chat/completions" in json.loads(body)["error"]["message"]
        status, _, body = post(server.root_url + "/v1/chat/completions")
        assert (status, json.loads(body)["choices"][0]["message"]["content"]) == (200, "scripted")
        assert [r.path for r in server.requests] == ["/v1/v1/chat/completions", "/v1/chat/completions"]


def test_what_a_real_api_refuses_is_refused():
    with FakeModelServer([reply_json("never sent")], api_key="sk-right") as server:
        url = server.base_url + "/chat/completions"
        assert post(url, raw=b"{not json")[0] == 400
        assert post(url, headers={"Authorization": "Bearer sk-wrong"})[0] == 401
        assert post(url, {"model": "m"}, headers={"Authorization": "Bearer sk-right"})[0] == 400
        assert post(url, {"messages": USER}, headers={"Authorization": "Bearer sk-right"})[0] == 400
        assert get_status(url) == 405
        assert len(server.requests) == 5 and server.problems == []


def test_a_non_streamed_reply_is_a_chat_completion():
    calls = [{"id": "call_1", "name": "read_file", "arguments": {"path": "calc.py"}}]
    with FakeModelServer([reply_json("Hello 世界"), reply_json(None, tool_calls=calls)]) as server:
        _, headers, body = post(server.base_url + "/chat/completions")
        assert headers["Content-Type"] == "application/json"
        assert json.loads(body)["choices"][0]["message"] == {"role": "assistant", "content": "Hello 世界"}
        choice = json.loads(post(server.base_url + "/chat/completions")[2])["choices"][0]
    assert choice["message"]["content"] is None and choice["finish_reason"] == "tool_calls"
    call = choice["message"]["tool_calls"][0]
    assert call["function"]["name"] == "read_file"
    assert json.loads(call["function"]["arguments"]) == {"path": "calc.py"}


# -- SSE: framing, splits, gates, cuts ------------------------------------------------

@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_framing_feature_reaches_a_correct_parser_exactly(newline):
    stream = SSEStream(newline=newline).comment().role().text(*TEXT[:2])
    stream.event({"choices": [{"index": 0, "delta": {"content": TEXT[2]}}]}, multiline=True, comment=(1, "ping"))
    stream.event({"choices": [{"index": 0, "delta": {"content": TEXT[3]}}]}, space=False)
    stream.comment("OPENROUTER PROCESSING").text(TEXT[4]).finish().usage(7, 3).done()
    with FakeModelServer([reply_stream(stream)]) as server:
        status, headers, body = post(server.base_url + "/chat/completions", chat(stream=True))
    assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
    assert body == stream.to_bytes()
    assert sse_payloads(body) == stream.payloads()
    assert texts(sse_payloads(body)) == "".join(TEXT)
    assert b": keep-alive" in body and b"data:{" in body and newline.encode() * 2 in body
    nl = newline.encode()
    assert re.search(rb"data: [^\r\n]*" + re.escape(nl) + rb":ping" + re.escape(nl) + rb"data: ", body), \
        "the comment sits between two data lines of one event"
    multiline = [p for p in stream.payloads() if "\n" in p]
    assert len(multiline) == 1 and json.loads(multiline[0])["choices"][0]["delta"]["content"] == TEXT[2]
    last_chunk = json.loads(sse_payloads(body)[-2])
    assert last_chunk["choices"] == [] and last_chunk["usage"]["total_tokens"] == 10
    assert sse_payloads(body)[-1] == "[DONE]"


def test_split_writes_arrive_one_by_one_even_inside_a_utf8_character():
    stream = SSEStream().text(*TEXT).done()
    data = stream.to_bytes()
    inside = [i for i in range(1, len(data)) if data[i] & 0xC0 == 0x80]  # continuation bytes
    offsets = sorted({inside[0], inside[len(inside) // 2], inside[-1], 5, len(data) // 2})
    event_ends = [sum(len(w) for w in stream.writes()[:k + 1]) for k in range(len(stream.writes()))]
    stream.split_at(*offsets)
    gates = [Gate(timeout=20) for _ in stream.writes()]
    writes = stream.writes()
    stream.items = [item for write, gate in zip(writes, gates) for item in (write, gate)]
    with FakeModelServer([reply_stream(stream)]) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("POST", "/v1/chat/completions", json.dumps(chat(stream=True)),
                           {"Content-Type": "application/json", "Authorization": "Bearer sk-test"})
        response = connection.getresponse()
        received = b""
        for write, gate in zip(writes, gates):
            assert gate.reached.wait(10), "the server never got past the write before this gate"
            piece = b""
            while len(piece) < len(write):  # the server is blocked: only this write can arrive
                piece += response.read1(65536)
            assert piece == write
            received += piece
            gate.open()
        assert response.read() == b""
        connection.close()
    starts = sorted({0, *offsets, *event_ends[:-1]})  # a write starts at every offset and every event
    assert [len(w) for w in writes] == [b - a for a, b in zip(starts, [*starts[1:], len(data)])]
    with pytest.raises(UnicodeDecodeError):
        data[:inside[0]].decode("utf-8")
    assert received == data and texts(sse_payloads(received)) == "".join(TEXT)


def test_a_raw_socket_sees_the_first_bytes_before_the_gate_opens():
    gate = Gate(timeout=20)
    stream = SSEStream().text("Hello").raw("data: {\"x\": \"\u4e16".encode()[:-1]).gate(gate).raw(b"\x96\"}\n\n")
    with FakeModelServer([reply_stream(stream)]) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        body = json.dumps(chat(stream=True)).encode()
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Authorization: Bearer sk-test\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        assert gate.reached.wait(10)
        seen = recv_until(sock, b"\xe4\xb8\r\n")  # the first chunk ends inside the character
        assert seen.startswith(b"HTTP/1.1 200") and b"Transfer-Encoding: chunked" in seen
        assert b"Hello" in seen and b"\x96" not in seen
        gate.open()
        seen += recv_until(sock, b"0\r\n\r\n")
        sock.close()
    assert b"\x96\"}\n\n" in seen and not gate.timed_out


def test_a_gate_nobody_opens_times_out_and_the_stream_goes_on():
    gate = Gate(timeout=0.3)
    stream = SSEStream().text("first").gate(gate).text(" rest").done()
    with FakeModelServer([reply_stream(stream)]) as server:
        _, _, body = post(server.base_url + "/chat/completions", chat(stream=True))
        problems = server.problems
    assert texts(sse_payloads(body)) == "first rest" and gate.timed_out
    assert problems == ["a gate was not opened within 0.3 s; the stream went on"]


CUT_CHILD = r"""
import http.client, json, sys, urllib.request
request = urllib.request.Request(sys.argv[1], data=b'{"model": "m", "messages": [{"role": "user", "content": "hi"}]}',
                                 method="POST", headers={"Authorization": "Bearer sk-test"})
lines = []
try:
    with urllib.request.urlopen(request, timeout=20) as response:
        if sys.argv[2] == "for line in response":
            lines = [line.decode("utf-8") for line in response]
        else:
            lines = response.read().decode("utf-8").splitlines(keepends=True)
    end = "clean end"
except http.client.HTTPException as exc:
    end = type(exc).__name__
print(json.dumps({"end": end, "done": "data: [DONE]\n" in lines, "hello": any("Hello" in x for x in lines)}))
"""


@pytest.mark.parametrize("reader", ["for line in response", "response.read()"])
@pytest.mark.parametrize("ending", ["done", "cut", "drop"])
def test_what_a_child_sees_of_a_cut_stream(ending, reader):
    """A cut (the body ends cleanly, no [DONE]) is told only by the missing sentinel.

    A drop (the chunked body stops without its last chunk) makes `read()` raise
    IncompleteRead, but a client reading lines sees a clean end: CPython's
    line reading peeks, and the peek swallows the error. So for the usual
    `for line in response` client, too, only the missing [DONE] tells.
    """
    stream = SSEStream().text("Hello", " world")
    stream = stream.done() if ending == "done" else stream.drop() if ending == "drop" else stream
    with FakeModelServer([reply_stream(stream)]) as server:
        proc = child(CUT_CHILD, server.base_url + "/chat/completions", reader)
        out, err = proc.communicate(timeout=30)
        problems = server.problems
    assert proc.returncode == 0, err
    broken = ending == "drop" and reader == "response.read()"
    expected = {"end": "IncompleteRead" if broken else "clean end", "done": ending == "done", "hello": not broken}
    assert json.loads(out) == expected
    assert problems == []


def test_an_error_payload_mid_stream_reaches_the_client_in_order():
    stream = SSEStream().text("Hel").error("The server had an error while processing your request.")
    with FakeModelServer([reply_stream(stream)]) as server:
        payloads = sse_payloads(post(server.base_url + "/chat/completions", chat(stream=True))[2])
    assert texts(payloads[:1]) == "Hel"
    assert json.loads(payloads[1])["error"]["message"].startswith("The server had an error")
    assert len(payloads) == 2


def test_the_reference_gateway_in_a_child_gets_text_calls_and_usage_exactly():
    calls = [("call_a", "read_file", json.dumps({"path": "calc.py"})),
             ("call_b", "list_dir", json.dumps({"path": ".", "glob": "*.py 世界"}))]
    stream = SSEStream().role().text(*TEXT).tool_calls(calls, pieces=3).finish("tool_calls").usage(12, 34).done()
    data = stream.to_bytes()
    stream.split_at(*random.Random(7).sample(range(1, len(data)), 40))
    with FakeModelServer([reply_stream(stream)]) as server:
        code, deltas, err = reference(server)
        (request,) = server.requests
    assert code == 0, err
    assert "".join(d.get("text", "") for d in deltas) == "".join(TEXT)
    assert [d["call"][0] for d in deltas if "call" in d] == [0, 0, 0, 1, 1, 1]  # one call after the other
    assert merge_calls(deltas) == {0: list(calls[0]), 1: list(calls[1])}
    assert {"usage": [12, 34]} in deltas and {"finish": "tool_calls"} in deltas
    assert request.stream and request.json["stream_options"] == {"include_usage": True}


def test_a_gate_lets_a_check_see_the_first_words_before_the_rest_is_sent():
    gate = Gate(timeout=20)
    stream = SSEStream().role().text("first words").gate(gate).text(" and the rest").done()
    lines: queue.Queue = queue.Queue()
    with FakeModelServer([reply_stream(stream)]) as server, \
            child(REFERENCE_CHILD, str(REFERENCE), server.base_url) as proc:
        threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
        first = json.loads(lines.get(timeout=20))
        # `reached` is set just after the first words are written: the child may print them first
        assert first == {"text": "first words"} and gate.reached.wait(10) and not gate.event.is_set()
        assert lines.empty()  # nothing after the gate has come while it is shut
        gate.open()
        assert proc.wait(timeout=20) == 0
        assert json.loads(lines.get(timeout=5)) == {"text": " and the rest"} and not gate.timed_out


# -- statuses, scripts, models, chains -------------------------------------------------

def test_statuses_come_in_script_order_with_their_retry_after_headers():
    date = http_date(2)
    script = [reply_status(503), reply_status(429, headers={"Retry-After": "2"}),
              reply_status(429, headers={"Retry-After": date}), reply_json("finally")]
    with FakeModelServer(script) as server:
        answers = [post(server.base_url + "/chat/completions") for _ in script]
        arrivals = [r.arrived for r in server.requests]
    assert [status for status, _, _ in answers] == [503, 429, 429, 200]
    assert json.loads(answers[0][2])["error"]["message"] == "503 Service Unavailable"
    assert answers[1][1]["Retry-After"] == "2" and answers[2][1]["Retry-After"] == date
    assert email.utils.parsedate_to_datetime(http_date(2, now=1000.25)).timestamp() == 1003  # rounded up
    assert arrivals == sorted(arrivals)


def test_the_reference_gateway_in_a_child_reports_a_401_with_the_servers_message():
    body = {"error": {"message": "bad key", "type": "invalid_request_error", "code": "invalid_api_key"}}
    with FakeModelServer([reply_status(401, body)]) as server:
        code, deltas, _ = reference(server)
    assert code == 1 and deltas[0]["status"] == 401 and deltas[0]["transient"] is False
    assert deltas[0]["error"].startswith("HTTP 401") and "bad key" in deltas[0]["error"]


def test_a_script_that_ran_out_answers_500_and_says_so():
    with FakeModelServer([reply_json("only one")]) as server:
        post(server.base_url + "/chat/completions")
        status, _, body = post(server.base_url + "/chat/completions")
        assert server.problems == ["the script ran out: chat request 2 has no scripted reply"]
    assert status == 500 and "script ran out" in json.loads(body)["error"]["message"]


def test_a_model_answers_from_the_history_after_the_script():
    def model(request):
        said = [m["content"] for m in request.messages if m["role"] == "user"]
        if said == ["boom"]:
            raise RuntimeError("no rule for boom")
        if said == ["text"]:
            return "a bare string is not a reply"
        return reply_json(f"you said {len(said)} thing(s), last: {said[-1]}")

    with FakeModelServer([reply_status(503)], model=model) as server:
        url = server.base_url + "/chat/completions"
        assert post(url)[0] == 503
        history = [*USER, {"role": "assistant", "content": "x"}, {"role": "user", "content": "again"}]
        reply = json.loads(post(url, chat(history))[2])["choices"][0]["message"]["content"]
        status, _, body = post(url, chat([{"role": "user", "content": "boom"}]))
        assert post(url, chat([{"role": "user", "content": "text"}]))[0] == 500
        assert server.problems == ["the model function raised RuntimeError: no rule for boom",
                                   "the model function gave a str, not a reply"]
    assert reply == "you said 2 thing(s), last: again"
    assert status == 500 and "no rule for boom" in json.loads(body)["error"]["message"]


CALL = {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
CALL2 = {**CALL, "id": "call_2"}
ASKS = {"role": "assistant", "content": None, "tool_calls": [CALL, CALL2]}


def answer(call_id: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": "ok"}


def test_an_invalid_chain_gets_a_400_naming_it_unless_the_check_says_otherwise():
    broken = [*USER, ASKS, answer("call_1"), {"role": "user", "content": "next"}]
    with FakeModelServer([reply_json("lenient")], enforce_chain=False) as loose:
        assert post(loose.base_url + "/chat/completions", chat(broken))[0] == 200
    with FakeModelServer([reply_json("lenient")], lenient=True) as lenient:
        assert post(lenient.base_url + "/chat/completions", chat(broken))[0] == 200
    with FakeModelServer([reply_json("fine")]) as strict:
        status, _, body = post(strict.base_url + "/chat/completions", chat(broken))
        message = json.loads(body)["error"]["message"]
        assert post(strict.base_url + "/chat/completions", chat([*USER, ASKS, answer("call_2"),
                                                                  answer("call_1")]))[0] == 200
        assert len(strict.problems) == 1
    assert status == 400 and "'call_2'" in message and "messages[1]" in message


@pytest.mark.parametrize("messages, problem", [
    ([*USER, ASKS, answer("call_1"), answer("call_2"), {"role": "assistant", "content": "done"}], None),
    ([{"role": "system", "content": "s"}, *USER], None),
    ([], "non-empty"),
    ([{"role": "robot", "content": "x"}], "unknown role 'robot'"),
    ([*USER, answer("call_1")], "messages[1] with role 'tool' answers tool_call_id 'call_1'"),
    ([*USER, ASKS, answer("call_1")], "'call_2' of messages[1] has no tool message answering it before the end"),
    ([*USER, ASKS, {"role": "user", "content": "?"}], "before messages[2] (user) (and 1 more)"),
    ([*USER, ASKS, answer("call_1"), answer("call_1"), answer("call_2")], "or was answered already"),
    ([*USER, ASKS, answer("call_1"), answer("call_2"), {"role": "assistant", "tool_calls": [CALL]}],
     "reuses the tool_call id 'call_1'"),
    ([*USER, {"role": "tool", "content": "x"}], "no tool_call_id"),
])
def test_valid_chain_names_the_first_problem(messages, problem):
    found = valid_chain(messages)
    assert found is None if problem is None else problem in found


# -- the builder -------------------------------------------------------------------

def test_tool_call_fragments_have_the_providers_shape():
    calls = [("c0", "a", '{"x": 1}'), ("c1", "b", '{"y": 2}')]
    stream = SSEStream().tool_calls(calls, pieces=2)
    fragments = [json.loads(p)["choices"][0]["delta"]["tool_calls"][0] for p in stream.payloads()]
    assert [f["index"] for f in fragments] == [0, 0, 1, 1]  # by default one call after the other
    assert fragments[0] == {"index": 0, "id": "c0", "type": "function",
                            "function": {"name": "a", "arguments": '{"x"'}}
    assert fragments[1] == {"index": 0, "id": "", "function": {"arguments": ': 1}'}}
    mixed = SSEStream().tool_calls(calls, pieces=2, interleave=True).payloads()
    assert [json.loads(p)["choices"][0]["delta"]["tool_calls"][0]["index"] for p in mixed] == [0, 1, 0, 1]
    (bare,) = SSEStream().tool_call(0, "x").payloads()
    assert json.loads(bare)["choices"][0]["delta"]["tool_calls"] == [{"index": 0, "function": {"arguments": "x"}}]


def test_split_at_keeps_every_byte_and_every_marker_in_place():
    gate = Gate()
    stream = SSEStream().raw(b"abcdef").gate(gate).raw(b"ghij").split_at(2, 6, 8, 3)
    assert stream.items == [b"ab", b"c", b"def", gate, b"gh", b"ij"]
    assert stream.to_bytes() == b"abcdefghij"


# -- the server's own manners ----------------------------------------------------------

def test_wait_for_requests_returns_when_they_came_and_is_bounded_when_not():
    with FakeModelServer([reply_json("a"), reply_json("b")]) as server:
        late = threading.Timer(0.2, post, [server.base_url + "/chat/completions"])
        late.start()
        assert len(server.wait_for_requests(1, timeout=10)) == 1
        late.join(10)
        started = time.monotonic()
        assert len(server.wait_for_requests(2, timeout=0.2)) == 1
        assert time.monotonic() - started < 5


def test_it_speaks_http_1_1_chunked_without_touching_werkzeug_or_the_terminal(capfd):
    stream = SSEStream().text("x").done()
    werkzeug_default = vars(WSGIRequestHandler).get("protocol_version")
    with FakeModelServer([reply_stream(stream)]) as server:
        assert vars(WSGIRequestHandler).get("protocol_version") == werkzeug_default
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("POST", "/v1/chat/completions", json.dumps(chat(stream=True)),
                           {"Authorization": "Bearer sk-test"})
        response = connection.getresponse()
        assert (response.version, response.getheader("Transfer-Encoding")) == (11, "chunked")
        assert response.read() == stream.to_bytes()
        connection.close()
    assert capfd.readouterr() == ("", "")


def test_close_is_bounded_with_clients_still_connected():
    gate = Gate(timeout=60)
    before = set(threading.enumerate())
    server = FakeModelServer([reply_stream(SSEStream().text("held").gate(gate).done())]).start()
    port = server.port
    silent = socket.create_connection(("127.0.0.1", port), timeout=10)  # connected, never sends
    with child(REFERENCE_CHILD, str(REFERENCE), server.base_url) as proc:  # a child held at the gate
        assert gate.reached.wait(20)
        started = time.monotonic()
        server.close()
        took = time.monotonic() - started
        proc.communicate(timeout=20)
    silent.close()
    assert took < 5, f"close() took {took:.1f} s with clients connected"
    assert server.problems == [] and not gate.timed_out
    assert set(threading.enumerate()) <= before
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
