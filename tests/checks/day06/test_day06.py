"""Day 06's checks, the parts of them no other day has: the catalogue, the order of the
checks, the scripted errors and the plans the loop-guard and cancel checks judge by.
(The corpus proof, common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import json
import random
import re
import tomllib

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-06")


def checks_module(name: str = "checks"):
    """A module of the day's checks folder, imported as the engine does (a package)."""
    return corpus.checks_module(DAY, name)


def test_titles_are_the_docstrings():
    module = checks_module()
    for check in DAY.all_checks:
        assert getattr(module, "test_" + check.id.replace("-", "_")).__doc__ == check.title


def test_every_message_the_checks_use_is_in_the_catalogue():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r'"((?:what|brief|idea)\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
        used |= {f"{a}.{b}" for a, b in re.findall(r'key = "([a-z_]+)\.([a-z_]+)"', path.read_text(encoding="utf-8"))}
        used |= set(re.findall(r'_failed_child\(ctx, "([a-z_]+\.[a-z_]+)"', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r'"((?:harness|cancel|dangling|guard|after|backoff)\.[a-z_]+)"',
                               path.read_text(encoding="utf-8")))
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text(encoding="utf-8"))
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text(encoding="utf-8"))
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert len(used) > 40 and used <= known, sorted(used - known)
    ours = {f"{section}.{name}" for section, entries in catalogue.items() for name in entries}
    assert ours <= used, f"sentences no check says: {sorted(ours - used)}"


def test_transient_statuses_always_hold_a_4xx_and_a_5xx():
    checks = checks_module()
    talk = checks_module("talk")
    rng = random.Random(6)
    for _ in range(300):
        count = rng.choice((2, 3))
        picked = checks._transient_statuses(rng, count)
        assert len(picked) == count
        assert any(s in talk.TRANSIENT_4XX for s in picked) and any(s >= 500 for s in picked)
        assert all(checks._retryable(s, False) for s in picked)


def test_retryable_is_the_contract():
    checks = checks_module()
    yes = {s for s in range(400, 600) if checks._retryable(s, False)}
    assert yes == {408, 409, 429} | set(range(500, 600))
    assert checks._retryable(None, True) and not checks._retryable(None, False)


def test_error_replies_differ_per_run_and_carry_cjk():
    talk = checks_module("talk")
    bodies = {talk.error_reply(random.Random(seed), 503).body for seed in range(40)}
    assert len(bodies) > 30
    reply = talk.error_reply(random.Random(1), 429, {"Retry-After": "3"})
    assert reply.status == 429 and reply.headers["Retry-After"] == "3"
    message = json.loads(reply.body)["error"]["message"]
    assert any(ord(ch) > 0x2E80 for ch in message)


def test_the_guard_plan_blocks_the_third_and_fourth_repeat_only():
    checks = checks_module()
    for seed in range(50):
        rng = random.Random(seed)
        pattern = f"zq{rng.getrandbits(32):08x}"
        plan, first_turn = checks._guard_plan(rng, {"a.txt": "A\n", "b.txt": "B\n"}, pattern, f"hit {pattern} here")
        calls = [c for reply in plan for c in reply]
        blocked = [(name, count, turn) for _, name, _, count, block, _, turn in calls if block]
        assert blocked == [("grep", "3rd", 1), ("grep", "4th", 1)], blocked
        assert first_turn == 4 and len(plan) == 5
        turned = [args for _, name, args, _, _, _, turn in calls if name == "grep" and turn == 1]
        repeated = next(args for _, name, args, _, block, _, turn in calls if block)
        same = [a for a in turned if a == repeated]
        assert len(same) == 4 and len({json.dumps(a) for a in same}) == 2  # one repeat has its keys the other way round
        twins = [a for a in turned if a != repeated]  # near twins: values swapped, or another pattern on the same path
        assert twins and all(not c[4] for c in calls if c[1] == "grep" and c[2] in twins)
        assert [c[1] for c in plan[-1]] == ["grep"] and not plan[-1][0][4]  # the next turn starts afresh
        reads = [c for c in calls if c[1] == "read_file" and c[2]["path"] == "a.txt"]
        assert [c[3] for c in reads] == ["1st", "2nd"] and not any(c[4] for c in reads)
        # In every draw the blocked call is one whose run is visible: the grep that finds the hit line.
        assert all(c[5] is None for c in calls if c[1] == "grep" and c[2].get("pattern") == pattern)
        assert all(c[5] is None for c in calls if c[4])


def test_a_blocked_result_and_a_tool_error_are_judged_by_what_they_say_not_their_first_word():
    checks = checks_module()
    for blocked in ["blocked: grep was already called 2 times with these arguments in this turn; try something else",
                    "error: loop guard: grep({\"path\": \".\"}) was not run again",
                    "Not run: this exact call came 3 times in a row", "refused, you are repeating the same call"]:
        assert checks.GUARD_REASON.search(blocked), blocked
    for plain in ["no matches", "a.txt:3: hit zq1234 here", "", "ok"]:
        assert not checks.GUARD_REASON.search(plain), plain
    for failed in ["error: read_file failed: FileNotFoundError: [Errno 2]", "read_file: FileNotFoundError: x.py",
                   "edit_file failed: cannot decode b.dat as UTF-8", "Could not write a/b.txt: Not a directory"]:
        assert checks.FAILURE.search(failed), failed
    for worked in ["", "hello 世界", "wrote 12 characters to a.txt"]:
        assert not checks.FAILURE.search(worked), worked


def test_the_cancelled_command_beats_until_it_is_stopped():
    """The command the cancel interrupts writes a line every 0.1 s (bounded), in every draw:
    a command still running after the prompt is back shows as a growing file."""
    source = (DAY.checks_dir / "checks.py").read_text(encoding="utf-8")
    assert 'while [ $i -lt 300 ]; do "' in source and "echo $i >> {beat}" in source and "sleep 0.1" in source
    assert "run.beats = (then, _size(beat), window)" in source


def test_finished_and_error_lines_are_read_from_the_screen():
    talk = checks_module("talk")
    stderr = ("model: x\n  -> read_file {\"path\": \"a\"}\n  <- read_file failed (0 ms, 20 chars)\n"
              "  <- list_dir ok (1 ms, 3 chars, truncated)\n  <- grep blocked by loop guard\n"
              "error (gateway): model request failed: HTTP 503: busy; trying again in 0.5 s\n")
    assert talk.finished_lines(stderr) == [("read_file", "failed"), ("list_dir", "ok"),
                                           ("grep", "blocked by loop guard")]
    assert talk.error_lines(stderr) == [("gateway", "model request failed: HTTP 503: busy; trying again in 0.5 s")]


def test_nominal_backoff_doubles_and_stops_at_the_cap():
    checks = checks_module()
    assert [checks.nominal(n) for n in range(7)] == [0.5, 1, 2, 4, 8, 8, 8]


def test_the_pauses_are_read_as_asked_between_two_arrivals(tmp_path):
    """Sleeps noted between two requests add up to that gap's pause; none noted is a pause of 0;
    a torn last note is left out, the notes before it count."""
    talk = checks_module("talk")
    requests = [talk.RecordedRequest("POST", talk.CHAT_PATH, {}, b"{}", {}, at) for at in (10.0, 11.0, 12.0, 13.0)]
    notes = tmp_path / "pauses.jsonl"
    notes.write_text("".join(json.dumps({"at": at, "seconds": s}) + "\n"
                             for at, s in ((10.2, 0.25), (10.3, 0.25), (12.5, 4.0))) + '{"at": 12.6, "sec',
                     encoding="utf-8")
    assert talk.asked_pauses(notes, requests) == [0.5, 0.0, 4.0]
    assert talk.asked_pauses(tmp_path / "none.jsonl", requests) == [0.0, 0.0, 0.0]


def test_no_lab_or_solution_reads_a_variable_made_for_a_check():
    """Time is controlled from outside the lab (harnesses/clock.py), never by a variable in its code."""
    for root in (corpus.KIT / "labs", corpus.KIT / "solutions", corpus.KIT / "source"):
        for path in root.rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md"):
                assert "MCA_TIME_SCALE" not in path.read_text(encoding="utf-8"), path
