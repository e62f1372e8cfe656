"""The grader's log generator (grader/checkkit): its logs follow the day-07 contract, and
its answers agree with the reference reader, replay and fork.

Two oracles: `strict_read` below (the contract's reading rule, written here from the
day sheet) and the reference solution, run in one child process per test module (it
is student-shaped code: it never runs inside the test process).
"""
from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader.checkkit.logdamage import (BAD_LINE_KINDS, bad_middle_line, blank_last_line, every_damage, first_line_seq,
                                       no_newline, torn_tail)
from grader.checkkit import loggen
from grader.checkkit.loggen import (
    KNOWN_TYPES, GeneratedLog, encode, fork_child, new_seed, parse_ts, rng_for, round1_log, two_round_log,
)

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "solutions" / "day-07-session-resume"
SEEDS = range(200)
DAMAGE_SEEDS = range(40)
ID = re.compile(r"s-(\d{8})-(\d{6})-[0-9a-f]{4}")
TS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
ROUND1_SHAPE = ["message system", "message user", "usage", "message assistant+tool_calls",
                "tool_end", "message tool", "usage", "message assistant"]
ROUND2_SHAPE = ["message user"] + ["usage", "message assistant+tool_calls", "tool_end", "message tool"] * 2 \
    + ["usage", "message assistant"]

# Reads each log with the reference's read_events / replay / fork_points (and forks it
# when asked) and prints what it saw. -I ignores PYTHONPATH, so the path comes in argv.
HARNESS = r"""
import base64, json, sys, tempfile
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from mca.session.log import read_events
from mca.session.replay import replay
from mca.session.fork import fork, fork_points
out = []
with tempfile.TemporaryDirectory() as tmp:
    for n, item in enumerate(json.load(sys.stdin)):
        sessions = Path(tmp) / str(n)
        sessions.mkdir()
        path = sessions / item["name"]
        path.write_bytes(base64.b64decode(item["data"]))
        read = read_events(path)
        again = replay(read.events)
        seen = {"stopped_at": read.stopped_at, "reason": read.reason,
                "events": [e.to_dict() for e in read.events], "messages": again.messages,
                "replayed": again.replayed, "skipped": again.skipped,
                "fork_points": fork_points(read.events)}
        if item.get("fork_at"):
            child = fork(sessions, path.stem, item["fork_at"])
            seen["child"] = {"id": child, "data": base64.b64encode((sessions / f"{child}.jsonl").read_bytes()).decode()}
        out.append(seen)
json.dump(out, sys.stdout, ensure_ascii=False)
"""


def reference(items: list[dict]) -> list[dict]:
    """Run the reference on [{name, data: bytes, fork_at?}] in one isolated child."""
    payload = [{**i, "data": base64.b64encode(i["data"]).decode()} for i in items]
    done = subprocess.run([sys.executable, "-I", "-c", HARNESS, str(REFERENCE)], input=json.dumps(payload),
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def strict_read(data: bytes) -> tuple[list[dict], int | None]:
    """The contract's rule: stop at the first bad line; seq must be the previous plus 1."""
    events: list[dict] = []
    *complete, rest = data.split(b"\n")
    for number, raw in enumerate(complete, start=1):
        try:
            event = json.loads(raw.decode("utf-8"))
        except ValueError:
            return events, number
        if not isinstance(event, dict) or not {"seq", "ts", "type"} <= event.keys() \
                or type(event["seq"]) is not int or event["seq"] != len(events) + 1:
            return events, number
        events.append(event)
    return events, (len(complete) + 1 if rest else None)  # a last line without its \n is torn


def shape(log: GeneratedLog) -> list[str]:
    kinds = []
    for e in log.events:
        if e["type"] != "message":
            kinds.append(e["type"])
        else:
            kinds.append(f"message {e['message']['role']}" + ("+tool_calls" if e["message"].get("tool_calls") else ""))
    return kinds


def variants(seed: int) -> dict[str, GeneratedLog]:
    """Every shape a check reads, drawn from one seed."""
    rng = rng_for(seed, "variants")
    two = two_round_log(rng)
    return {
        "round1": round1_log(rng),
        "round1+error+unknown": round1_log(rng, error=True, unknown=True),
        "round1 compact, shuffled keys": round1_log(rng, compact=True, shuffle_keys=True, error=True),
        "two-rounds": two,
        "two-rounds+error between+unknown": two_round_log(rng, error_between_rounds=True, unknown=True),
        "fork child": fork_child(two, rng.choice(two.fork_points), rng),
        "round1 with an empty read": round1_log(rng, empty_read=True),
    }


@pytest.fixture(scope="module")
def logs() -> list[tuple[int, str, GeneratedLog]]:
    return [(seed, name, log) for seed in SEEDS for name, log in variants(seed).items()]


@pytest.fixture(scope="module")
def damaged() -> list:
    out = []
    for seed in DAMAGE_SEEDS:
        rng = rng_for(seed, "damage")
        for name, log in variants(seed).items():
            out += [(seed, name, d) for d in every_damage(log, rng)]
    return out


# ----------------------------------------------------------------------------- clean logs

def test_the_reference_reads_every_generated_log_as_the_generator_says(logs):
    seen = reference([{"name": log.file_name, "data": log.data} for _, _, log in logs])
    for (seed, name, log), ref in zip(logs, seen):
        where = f"seed {seed}, {name}"
        assert ref["stopped_at"] is None, f"{where}: the reference stopped at {ref['stopped_at']}: {ref['reason']}"
        assert ref["events"] == log.events, where
        assert ref["messages"] == log.messages, where
        assert (ref["replayed"], ref["skipped"]) == (log.replayed, log.skipped), where
        assert ref["fork_points"] == log.fork_points, where
        assert strict_read(log.data) == (log.events, None), where


def test_every_log_keeps_the_format_of_the_contract(logs):
    for seed, name, log in logs:
        where = f"seed {seed}, {name}"
        assert ID.fullmatch(log.session_id), where
        assert len(log.lines) == len(log.events) and log.data == b"".join(log.lines)
        assert [e["seq"] for e in log.events] == list(range(1, len(log.events) + 1)), where
        stamps = [e["ts"] for e in log.events]
        assert all(TS.fullmatch(ts) for ts in stamps) and stamps == sorted(stamps), where
        first = parse_ts(stamps[0]) if name != "fork child" else None
        if first:  # the id is the creation time: the first event's, to the second
            assert log.session_id[2:17] == f"{first:%Y%m%d-%H%M%S}", where
            assert log.events[0]["config"] == {"gateway": "mock", "model": log.events[0]["config"]["model"],
                                               "base_url": None}
        for line, event in zip(log.lines, log.events):
            assert line.endswith(b"\n") and line.count(b"\n") == 1, where
            assert json.loads(line) == event, where
            if "compact" not in name:  # byte for byte what the reference writer makes
                assert line == (json.dumps(json.loads(line), ensure_ascii=False) + "\n").encode(), where
        unknown = [e for e in log.events if e["type"] not in KNOWN_TYPES]
        assert len(unknown) == ("unknown" in name), where


def test_every_tool_message_answers_the_call_before_it(logs):
    for seed, name, log in logs:
        calls: dict[str, str] = {}
        for e in log.events:
            if e["type"] == "message" and e["message"].get("tool_calls"):
                calls = {c["id"]: c["name"] for c in e["message"]["tool_calls"]}
            elif e["type"] == "tool_end":
                assert calls.get(e["id"]) == e["name"], f"seed {seed}, {name}"
            elif e["type"] == "message" and e["message"]["role"] == "tool":
                assert e["message"]["tool_call_id"] in calls, f"seed {seed}, {name}"


def test_round1_has_the_eight_events_of_the_contract():
    for seed in SEEDS:
        log = round1_log(rng_for(seed, "shape"))
        assert shape(log) == ROUND1_SHAPE
        assert (log.replayed, log.skipped, log.fork_points) == (5, 3, [2, 8])
        tool, answer = log.events[5]["message"]["content"], log.events[7]["message"]["content"]
        failing = re.search(r"ERROR: (\w+)", tool).group(1)
        assert tool.startswith("exit status 1 ") and failing in answer
        assert log.events[4]["chars"] == len(tool)


def test_two_rounds_fork_at_2_8_9_19_and_an_error_between_rounds_moves_them():
    for seed in SEEDS:
        rng = rng_for(seed, "shape")
        plain, with_error = two_round_log(rng), two_round_log(rng, error_between_rounds=True)
        assert shape(plain) == ROUND1_SHAPE + ROUND2_SHAPE and plain.fork_points == [2, 8, 9, 19]
        assert shape(with_error) == ROUND1_SHAPE + ["error"] + ROUND2_SHAPE
        assert with_error.fork_points == [2, 8, 10, 20] and (with_error.replayed, with_error.skipped) == (11, 9)
        assert (plain.replayed, plain.skipped) == (11, 8)
        assert len({c["id"] for e in plain.events if e["type"] == "message"
                    for c in e["message"].get("tool_calls", [])}) == 3   # call ids unique in a log


def test_extra_events_go_where_asked_or_at_a_clean_slot():
    for seed in SEEDS:
        rng = rng_for(seed, "extras")
        at5 = round1_log(rng, error=5)
        assert shape(at5) == ROUND1_SHAPE[:4] + ["error"] + ROUND1_SHAPE[4:]
        assert isinstance(at5.events[4]["message"], str) and at5.fork_points == [2, 9]
        both = round1_log(rng, error=True, unknown=True)
        assert len(both.events) == 10 and (both.replayed, both.skipped) == (5, 5)
        for i, e in enumerate(both.events):
            if e["type"] not in ("message", "tool_end", "usage"):  # an extra: after a clean message
                before = next(b for b in reversed(both.events[:i]) if b["type"] in ("message", "tool_end", "usage"))
                assert before["type"] == "message" and not before["message"].get("tool_calls")
        unknown = next(e for e in both.events if e["type"] not in KNOWN_TYPES)
        assert unknown["message"]["role"] == "user" and unknown["seq"] not in both.fork_points
    for bad in (1, 10, 0, -3):
        with pytest.raises(ValueError):
            round1_log(rng_for(0, "extras"), error=bad)


def test_text_is_really_non_ascii_with_4_byte_characters(logs):
    for seed, name, log in logs:
        assert any(b >= 0x80 for b in log.data), f"seed {seed}, {name}"
        assert re.search(rb"[\xf0-\xf4][\x80-\xbf]{3}", log.data), f"seed {seed}, {name}"
        if name != "fork child":  # the answer that ends a round always has CJK and emoji
            assert re.search(rb"[\xf0-\xf4]", log.lines[-1])


def test_same_seed_same_bytes_other_seeds_other_bytes(logs):
    again = [(seed, name, log) for seed in SEEDS for name, log in variants(seed).items()]
    assert [log.data for *_, log in again] == [log.data for *_, log in logs]
    assert [log.session_id for *_, log in again] == [log.session_id for *_, log in logs]
    for name in variants(0):
        datas = [log.data for _, n, log in logs if n == name]
        assert len(set(datas)) == len(SEEDS), name
    one = rng_for(7, "a")
    assert round1_log(one).data != round1_log(rng_for(7, "b")).data   # labels are independent streams
    assert all(0 <= new_seed() < 2**32 for _ in range(100))


def test_messages_are_copies():
    log = round1_log(rng_for(1, "copy"))
    log.messages[0]["content"] = "changed"
    assert log.messages[0]["content"] != "changed"


def test_write_puts_the_log_under_its_id(tmp_path):
    log = two_round_log(rng_for(3, "write"))
    path = log.write(tmp_path / "sessions")
    assert path == tmp_path / "sessions" / f"{log.session_id}.jsonl" and path.read_bytes() == log.data
    broken = torn_tail(log, rng_for(3, "write"))
    assert broken.write(tmp_path / "other").read_bytes() == broken.data


# ----------------------------------------------------------------------------- fork

def test_fork_child_is_the_prefix_then_one_fork_event():
    for seed in SEEDS:
        rng = rng_for(seed, "fork")
        parent = two_round_log(rng, error_between_rounds=seed % 2 == 0)
        at = rng.choice(parent.fork_points)
        child = fork_child(parent, at, rng)
        assert child.data.startswith(b"".join(parent.lines[:at])) and len(child.lines) == at + 1
        assert child.events[-1] == {"seq": at + 1, "ts": child.events[-1]["ts"], "type": "fork",
                                    "from": parent.session_id, "atSeq": at}
        assert child.session_id > parent.session_id and child.events[-1]["ts"] >= parent.events[-1]["ts"]
        with pytest.raises(ValueError, match="not a fork point"):
            fork_child(parent, 4, rng)


def test_the_reference_fork_makes_the_same_child():
    items, expected = [], []
    for seed in range(30):
        rng = rng_for(seed, "reference-fork")
        parent = two_round_log(rng, compact=seed % 3 == 0)
        at = rng.choice(parent.fork_points)
        items.append({"name": parent.file_name, "data": parent.data, "fork_at": at})
        expected.append(fork_child(parent, at, rng))
    for ours, ref in zip(expected, reference(items)):
        theirs = base64.b64decode(ref["child"]["data"]).splitlines(keepends=True)
        assert theirs[:-1] == ours.lines[:-1]
        fork_event = json.loads(theirs[-1])
        assert {k: v for k, v in fork_event.items() if k != "ts"} == \
            {k: v for k, v in ours.events[-1].items() if k != "ts"}


# ----------------------------------------------------------------------------- damage

def test_every_damage_stops_the_strict_reader_where_promised(damaged):
    for seed, name, d in damaged:
        events, stopped = strict_read(d.data)
        assert (stopped, events) == (d.stopped_at, d.events), f"seed {seed}, {name}: {d.description}"
        assert d.expected_events == d.stopped_at - 1 and len(d.events) == d.expected_events


def test_every_damage_stops_the_reference_where_promised(damaged):
    seen = reference([{"name": d.source.file_name, "data": d.data} for *_, d in damaged])
    for (seed, name, d), ref in zip(damaged, seen):
        where = f"seed {seed}, {name}: {d.description}"
        assert (ref["stopped_at"], ref["events"]) == (d.stopped_at, d.events), where


def test_each_bad_line_kind_is_what_its_name_says():
    for seed in DAMAGE_SEEDS:
        rng = rng_for(seed, "kinds")
        log = two_round_log(rng)
        n = len(log.lines)
        for kind in BAD_LINE_KINDS:
            d = bad_middle_line(log, rng, kind)
            m, lines = d.stopped_at, d.data.split(b"\n")[:-1]
            assert 2 <= m <= n - 1 and d.kind == kind and str(m) in d.description
            assert b"\n".join(lines[: m - 1]) + b"\n" == b"".join(log.lines[: m - 1])
            bad = lines[m - 1]
            if kind == "bad-json":
                bad.decode("utf-8")
                with pytest.raises(ValueError):
                    json.loads(bad)
            elif kind == "blank":
                assert bad == b"" and len(lines) == n + 1
            elif kind == "not-object":
                assert not isinstance(json.loads(bad), dict)
            elif kind.startswith("missing-"):
                event = json.loads(bad)
                assert kind[8:] not in event and {**event, kind[8:]: log.events[m - 1][kind[8:]]} == log.events[m - 1]
            elif kind == "repeated-seq":
                assert json.loads(bad)["seq"] == m - 1
            elif kind == "lower-seq":
                assert 1 <= json.loads(bad)["seq"] < m - 1
            elif kind == "bad-utf8":
                with pytest.raises(UnicodeDecodeError):
                    bad.decode("utf-8")
                assert json.loads(bad.replace(b"\xff", b"")) == log.events[m - 1]
            elif kind == "trailing-garbage":
                with pytest.raises(ValueError):
                    json.loads(bad)
                assert json.JSONDecoder().raw_decode(bad.decode("utf-8"))[0] == log.events[m - 1]
            elif kind == "seq-not-int":
                seq = json.loads(bad)["seq"]
                assert type(seq) is not int and int(str(seq).strip().split(".")[0]) == m
            elif kind == "raw-control":
                assert any(chr(c).encode() in bad for c in (0x01, 0x09, 0x0D, 0x1F))
                with pytest.raises(ValueError):
                    json.loads(bad)
                assert isinstance(json.loads(bad, strict=False), dict)  # only the raw character is wrong
            else:  # seq-gap: one line gone, the rest untouched
                assert json.loads(bad)["seq"] == m + 1 and len(lines) == n - 1
                assert d.data == b"".join(log.lines[: m - 1] + log.lines[m:])


def test_a_blank_last_line_stops_after_every_event():
    for seed in DAMAGE_SEEDS:
        log = round1_log(rng_for(seed, "blank-last"))
        d = blank_last_line(log)
        assert d.data == log.data + b"\n" and (d.stopped_at, d.events) == (len(log.lines) + 1, log.events)
        assert strict_read(d.data) == (log.events, len(log.lines) + 1)


def test_an_empty_read_and_a_long_output_are_still_the_contract():
    for seed in SEEDS:
        rng = rng_for(seed, "shapes")
        empty = round1_log(rng, empty_read=True)
        results = [e["message"] for e in empty.events if e["type"] == "message" and e["message"]["role"] == "tool"]
        assert results[0]["content"] == "" and len(empty.events) == 12 and empty.fork_points == [2, 12]
        assert (empty.replayed, empty.skipped) == (7, 5)
        if seed in DAMAGE_SEEDS:  # a log of a megabyte and more per draw: the damage draws' count is enough
            long = round1_log(rng, long_output=True)
            assert max(map(len, long.lines)) > 1024 * 1024 and strict_read(long.data) == (long.events, None)


def test_the_first_line_with_another_seq_stops_at_line_one():
    for seed in DAMAGE_SEEDS:
        rng = rng_for(seed, "first")
        log = round1_log(rng)
        d = first_line_seq(log, rng)
        first = json.loads(d.data.split(b"\n")[0])
        assert (d.stopped_at, d.expected_events) == (1, 0) and first["seq"] != 1
        assert d.data.split(b"\n", 1)[1] == b"".join(log.lines[1:])


def test_logs_carry_what_breaks_naive_code():
    """Empty assistant content next to tool calls, a line break JSON leaves raw, a repeated
    turn, a clock set back: inputs that tell careful code from code that only looks right."""
    for seed in SEEDS[:50]:
        rng = rng_for(seed, "naive")
        two = two_round_log(rng)
        assert any(e["type"] == "message" and e["message"].get("tool_calls") and e["message"]["content"] == ""
                   for e in two.events)
        one = round1_log(rng)
        assert any(brk in one.lines[-1].decode("utf-8") for brk in ("\u2028", "\u2029", "\x85"))
        again = round1_log(rng, repeat_turn=True)
        assert len(again.events) == 11 and again.messages[1] == again.messages[5] and again.messages[4] == again.messages[6]
        back = round1_log(rng, clock_back=True)
        stamps = [e["ts"] for e in back.events]
        assert stamps != sorted(stamps) and [e["seq"] for e in back.events] == list(range(1, 9))


def test_torn_tails_cut_inside_the_last_line_and_inside_a_character_when_asked():
    for seed in SEEDS:
        rng = rng_for(seed, "torn")
        log = round1_log(rng, unknown=seed % 2 == 0)
        body, last = b"".join(log.lines[:-1]), log.lines[-1]
        for inside in (True, False, None):
            d = torn_tail(log, rng, inside_char=inside)
            assert d.data.startswith(body) and (d.stopped_at, d.expected_events) == (len(log.lines), len(log.lines) - 1)
            cut = d.data[len(body):]
            assert 1 <= len(cut) <= len(last) - 2 and last.startswith(cut)
            if inside is True:
                assert d.kind == "torn-in-char"
                with pytest.raises(UnicodeDecodeError):
                    cut.decode("utf-8")
            elif inside is False:
                cut.decode("utf-8")
        tail = no_newline(log)
        assert tail.data == log.data[:-1] and json.loads(tail.data.split(b"\n")[-1]) == log.events[-1]


def test_a_cut_inside_a_character_needs_one_in_the_last_line():
    parent = two_round_log(rng_for(5, "ascii"))
    child = fork_child(parent, 8, rng_for(5, "ascii"))   # ends with the (ASCII) fork event
    with pytest.raises(ValueError, match="multi-byte"):
        torn_tail(child, rng_for(5, "ascii"), inside_char=True)
    assert torn_tail(child, rng_for(5, "ascii")).kind == "torn"
    assert encode(child.events[-1]) == child.lines[-1]


def test_logs_speak_in_every_voice_and_keep_their_shape():
    """Plain English, one script, mixed: the same events and fork points in each, and a plain
    log's user messages are plain ASCII, a one-script log's hold no Latin letter, so nothing
    about the text tells a generated log from a person's."""
    for seed in SEEDS:
        logs = {voice: two_round_log(rng_for(seed, "voices"), voice=voice) for voice in loggen.VOICES}
        assert {log.voice for log in logs.values()} == set(loggen.VOICES)
        for log in logs.values():
            assert shape(log) == shape(logs["mixed"]) and log.fork_points == [2, 8, 9, 19]
        users = {voice: [e["message"]["content"] for e in log.events
                         if e["type"] == "message" and e["message"]["role"] == "user"] for voice, log in logs.items()}
        assert all(text.isascii() for text in users["plain"])
        assert all(not re.search(r"[A-Za-z]", text.split(" ", 2)[-1]) for text in users["one-script"][:1])
        assert all(re.search(r"[^\x00-\xff]", text) for text in users["mixed"])
        assert round1_log(rng_for(seed, "v"), voice="plain").voice == "plain"
        assert round1_log(rng_for(seed, "v")).voice == "mixed"  # the default is unchanged
    with pytest.raises(ValueError):
        two_round_log(rng_for(0, "voices"), voice="shouting")


def test_turns_have_the_lengths_real_sessions_have():
    """A user's turn is anything from a word or two to a paragraph, an assistant's from a line to
    several paragraphs, in every voice: not every message 3 to 9 words (a made log's tell)."""
    from grader.checkkit.draws import VOICES
    for voice in VOICES:
        words = {"user": [], "assistant": []}
        for seed in range(60):
            log = round1_log(rng_for(seed, f"lengths-{voice}"), voice=voice)
            for event in log.events:
                message = event.get("message") or {}
                if message.get("role") in words and message.get("content"):
                    text = message["content"]
                    # a script without spaces: count its characters in twos, as words go
                    count = len(text.split()) if " " in text.strip() else max(1, len(text) // 2)
                    words[message["role"]].append(count)
        assert min(words["user"]) <= 3 and max(words["user"]) >= 40, (voice, sorted(words["user"]))
        assert max(words["assistant"]) >= 100, (voice, sorted(words["assistant"]))
        assert sum(1 for n in words["user"] if not 3 <= n <= 9) >= len(words["user"]) // 3, voice
