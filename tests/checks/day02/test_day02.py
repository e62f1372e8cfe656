"""Day 02's checks, the parts of them no other day has: the catalogue, the order of the
checks, and the generated streams themselves (they hold every edge the checks claim).
(The corpus proof, common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import json
import random
import re
import tomllib

import pytest

from tests.checks import corpus
from tests.checks.conftest import uses

DAY = corpus.COURSE.find_day("day-02")


def checks_module(name: str = "checks"):
    """A module of the day's checks folder, imported as the engine does (a package)."""
    return corpus.checks_module(DAY, name)


def parse(data: bytes) -> list[str]:
    """A plain reference SSE reader for the tests: the data of each event."""
    events, lines = [], []
    for raw in data.split(b"\n"):
        line = raw.removesuffix(b"\r").decode("utf-8")
        if not line:
            if lines:
                events.append("\n".join(lines))
            lines = []
        elif line.startswith("data:"):
            lines.append(line[5:].removeprefix(" "))
    return events


def test_every_message_the_checks_use_is_in_the_catalogue():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', text))
        used |= set(re.findall(r'"((?:what|brief|idea)\.[a-z0-9_]+)"', text))  # keys chosen in an expression
        used |= set(re.findall(r'"((?:stream|doubled|cut)\.[a-z_]+)"', text))  # keys chosen in an expression
    # keys built at run time
    used |= {f"{section}.{name}" for section in ("framing", "split") for name in ("not_read", "text_wrong")}
    used |= {f"layers.{stream}_{mode}" for stream in ("out", "err") for mode in ("apart", "together")}
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text(encoding="utf-8"))
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text(encoding="utf-8"))
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert len(used) > 30 and used <= known, sorted(used - known)


@pytest.mark.parametrize("seed", range(20))
def test_generated_streams_hold_every_edge_they_claim(seed):
    streams = checks_module("streams")
    rng = random.Random(seed)
    text = streams.reply_text(rng)
    assert any(ch in text for ch in ("\u2028", "\u2029", "\x85"))
    reply = streams.Reply(rng, "m", streams.every_feature(rng, 10), 0.5).role()
    reply.text(streams.cut(rng, text, 4)).finish().usage(1, 2).done()
    data = reply.stream.to_bytes()
    assert b"\r\n\r\n" in data and b"\n\n" in data.replace(b"\r\n", b"")  # CRLF and LF events
    assert re.search(rb"data:[^ ]", data) and b"data: " in data        # with and without the space
    assert re.search(rb"data: [^\r\n]*\r?\ndata:", data)                 # a payload over several lines
    assert re.search(rb"(^|\n):\r?\n", data) and b": keep-alive" in data  # a bare comment and a spaced one
    payloads = parse(data)
    assert payloads[-1] == "[DONE]"
    pieces = [json.loads(p)["choices"][0]["delta"].get("content", "") for p in payloads[:-1]
              if json.loads(p).get("choices")]
    assert "".join(pieces) == text
    points = streams.cut_points(rng, data, 5)
    sizes = set()
    position = 0
    for char in data.decode("utf-8"):
        size = len(char.encode("utf-8"))
        if any(position < p < position + size for p in points):
            sizes.add(size)
        position += size
    assert {2, 3, 4} <= sizes | {2}, "a cut inside a 3- and a 4-byte character"  # 2-byte ones come and go
    assert any(data[p - 1:p + 1] == b"\r\n" for p in points), "a cut between CR and LF"


@pytest.mark.parametrize("seed", range(20))
def test_interleaved_fragments_alternate_and_join_back(seed):
    streams = checks_module("streams")
    rng = random.Random(seed)
    calls = [(streams.call_id(rng), streams.tool_name(rng), streams.tool_args(rng)) for _ in range(2)]
    fragments = streams.interleaved(rng, calls)
    indexes = [index for index, _ in fragments]
    assert indexes[:4] == [0, 1, 0, 1] and len(indexes) % 2 == 0
    for n, (_, _, args) in enumerate(calls):
        parts = [part for index, part in fragments if index == n]
        assert json.loads("".join(parts)) == args
        assert parts[0] and "".join(parts) != parts[0], "the first fragment is a strict prefix"
        assert any(part.startswith(" ") for part in parts[1:]), "a fragment starts with a space of a value"


def test_the_screen_script_stays_off_the_assistant_text_branch():
    screening = checks_module("screening")
    for seed in range(20):
        events = screening.script(random.Random(seed))
        kinds = {kind for kind, *_ in events}
        assert {"user", "text", "usage", "error", "assistant", "tool"} <= kinds
        for before, (kind, *_) in zip(events, events[1:]):
            if kind == "assistant":
                assert before[0] in ("usage", "error"), "a status line closes the text before an assistant message"


@pytest.mark.parametrize("seed", range(20))
def test_fragments_one_call_after_the_other_open_with_index_0_and_join_back(seed):
    streams = checks_module("streams")
    rng = random.Random(seed)
    calls = [(streams.call_id(rng), streams.tool_name(rng), streams.tool_args(rng)) for _ in range(2)]
    fragments = streams.interleaved(rng, calls, together=False)
    indexes = [index for index, _ in fragments]
    assert indexes == sorted(indexes) and indexes[0] == 0 and indexes.count(0) >= 2, "index 0's fragments, then 1's"
    for n, (_, _, args) in enumerate(calls):
        assert json.loads("".join(part for index, part in fragments if index == n)) == args


@pytest.mark.parametrize("seed", range(20))
def test_framing_turns_hold_done_in_a_delta_and_a_comment_inside_an_event(seed):
    checks = checks_module()
    streams = checks_module("streams")
    rng = random.Random(seed)
    marked = checks._marked(rng, 3)
    assert any(marked)
    text, reply = checks._turn(rng, "m", streams.every_feature(rng, 10), 0.5, done_inside=True)
    data = reply.stream.to_bytes()
    payloads = parse(data)
    pieces = [json.loads(p)["choices"][0]["delta"].get("content", "") for p in payloads[:-1]
              if json.loads(p).get("choices")]
    assert "".join(pieces) == text and any("[DONE]" in piece for piece in pieces), pieces
    assert payloads[-1] == "[DONE]" and payloads.count("[DONE]") == 1
    assert re.search(rb"data:[^\r\n]*\r?\n:[^\r\n]*\r?\ndata:", data), "a comment between two data: lines of one event"


@pytest.mark.parametrize("seed", range(2))
def test_the_official_sdk_reads_the_generated_streams_as_the_checks_intend(seed):
    """The day's generated streams, framing edges, cuts anywhere and both call orders, read by a
    client nobody here wrote (the `openai` SDK, against the fake server on 127.0.0.1)."""
    import openai

    from grader.checkkit.fakeserver import FakeModelServer, reply_stream

    checks, streams = checks_module(), checks_module("streams")
    rng = random.Random(seed)
    text, reply = checks._turn(rng, "m", streams.every_feature(rng, 10), 0.6, done_inside=True)
    data = reply.stream.to_bytes()
    reply.stream.split_at(*rng.sample(range(1, len(data)), 30))
    calls = checks._two_calls(rng)
    replies = []
    for together in (True, False):
        with_calls = streams.Reply(rng, "m", streams.every_feature(rng, 12), 0.5).role()
        started: set[int] = set()
        for index, part in streams.interleaved(rng, calls, together):
            opens = index not in started
            started.add(index)
            with_calls.fragment(index, part, id=calls[index][0] if opens else None,
                                name=calls[index][1] if opens else None)
        replies.append(with_calls.finish("tool_calls").usage(5, 6).done())
    with FakeModelServer([reply_stream(r.stream) for r in (reply, *replies)]) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0, timeout=10,
                               http_client=openai.DefaultHttpxClient(trust_env=False))
        read = [list(client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}],
                                                    stream=True, stream_options={"include_usage": True}))
                for _ in range(3)]
        assert server.problems == []
    assert "".join(c.choices[0].delta.content or "" for c in read[0] if c.choices) == text
    assert [c.usage is not None for c in read[0]].count(True) == 1
    for chunks in read[1:]:
        got: dict[int, list] = {}
        for chunk in chunks:
            for part in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
                call = got.setdefault(part.index, ["", "", ""])
                call[0] = call[0] or part.id or ""
                call[1] = call[1] or part.function.name or ""
                call[2] += part.function.arguments or ""
        assert {k: (i, n, json.loads(a)) for k, (i, n, a) in got.items()} == dict(enumerate(calls))


def test_every_framing_draw_holds_a_padded_reply_and_a_done_marker():
    """sse-framing and sse-split-anywhere mark one turn of each draw for each edge: a reply
    with white space at both ends, a delta saying [DONE] (never only on some seeds)."""
    checks, streams = checks_module(), checks_module("streams")
    for seed in range(300):
        rng = random.Random(seed)
        for turns in (3,):
            assert any(checks._marked(rng, turns)), seed
        text = streams.padded(rng, streams.reply_text(rng))
        assert text[0].isspace() and text[-1].isspace() and "\n" in text[len(text.rstrip()):], repr(text)


@uses("day-02/mutants/screen_no_flush", "day-02/mutants/screen_call_on_stdout_too")
def test_a_missing_flush_and_a_stray_line_are_told_as_such(gradings):
    """A Screen.show that does not flush is sent to mca/screen.py (its check rests on E4 too);
    a tool-call line on stdout is a stray line, not a double print."""
    flush = gradings.get("day-02/mutants/screen_no_flush").check("streams-before-done")
    assert "without a flush" in flush["message"] and "mca/screen.py" in flush["message"], flush
    stray = gradings.get("day-02/mutants/screen_call_on_stdout_too").check("no-doubled-text")
    assert "stray line" in stray["message"] and "appears" not in stray["message"], stray


@pytest.mark.parametrize("seed", range(20))
def test_the_byte_split_turn_puts_an_event_right_after_a_crlf_one(seed):
    """In sse-split-anywhere's byte-by-byte turn, a CRLF blank line is followed at once by
    another event's data (no comment between): a reader that mends CRLF per chunk joins them."""
    checks, streams = checks_module(), checks_module("streams")
    rng = random.Random(seed)
    _, reply = checks._turn(rng, "m", streams.every_feature(rng, 10), 0.0)
    data = reply.stream.to_bytes()
    assert b"\r\n\r\ndata:" in data, data[:300]
