"""The server-sent events reader (day 2): bytes split anywhere in, one payload per event out."""

from __future__ import annotations

import pytest

from .days import module_since

module_since(2, "the SSE reader")

from mca.gateway.base import GatewayError  # noqa: E402
from mca.gateway.sse import read_events  # noqa: E402

STREAM = ('data: {"n": 1, "text": "caf\u00e9 \U0001f600"}\n\n'
          ': keep-alive\n\n'
          'data:{"n": 2}\n\n'
          'event: delta\ndata: {"n":\ndata: 3}\n\n'
          'data: [DONE]\n\n').encode("utf-8")
PAYLOADS = [{"n": 1, "text": "caf\u00e9 \U0001f600"}, {"n": 2}, {"n": 3}]


def events(*chunks: bytes) -> list[dict]:
    return list(read_events(iter(chunks)))


def test_one_payload_per_event_in_order():
    assert events(STREAM) == PAYLOADS


def test_a_split_anywhere_gives_the_same_events():
    # every cut point, inside an event, a line end, and the bytes of one UTF-8 character
    for cut in range(1, len(STREAM)):
        assert events(STREAM[:cut], STREAM[cut:]) == PAYLOADS, f"split at byte {cut}"


def test_one_byte_at_a_time():
    assert events(*[STREAM[i:i + 1] for i in range(len(STREAM))]) == PAYLOADS


def test_crlf_line_ends():
    assert events(STREAM.replace(b"\n", b"\r\n")) == PAYLOADS


def test_comments_are_skipped_even_between_data_lines():
    assert events(b'data: {"a":\n: ping\ndata: 1}\n\ndata: [DONE]\n\n') == [{"a": 1}]


def test_several_data_lines_join_with_a_newline(monkeypatch):
    import mca.gateway.sse as sse

    monkeypatch.setattr(sse, "payload_of", lambda text: {"raw": text})
    assert events(b"data: first\ndata:second\ndata:  third\n\ndata: [DONE]\n\n") == [
        {"raw": "first\nsecond\n third"}]  # only one space after the colon is dropped


def test_done_ends_the_stream_and_what_follows_is_not_read():
    def chunks():
        yield b'data: {"n": 1}\n\ndata: [DONE]\n\n'
        raise AssertionError("read past [DONE]")
    assert list(read_events(chunks())) == [{"n": 1}]


@pytest.mark.parametrize("stream", [b'data: {"n": 1}\n\n', b'data: {"n": 1}\n\ndata: [DONE]', b""])
def test_a_stream_without_done_was_cut(stream):
    with pytest.raises(GatewayError, match="cut") as error:
        events(stream)
    assert error.value.transient  # the next attempt may get the whole reply


def test_an_error_payload_is_raised_with_its_message():
    with pytest.raises(GatewayError, match="mid-stream: model overloaded") as error:
        events(b'data: {"n": 1}\n\ndata: {"error": {"message": "model overloaded"}}\n\n')
    assert not error.value.transient


@pytest.mark.parametrize("data", [b"data: not json\n\n", b"data: [1, 2]\n\n"])
def test_a_payload_that_is_not_a_json_object_is_an_error(data):
    with pytest.raises(GatewayError):
        events(data + b"data: [DONE]\n\n")
