"""Day 07's checks, the parts of them no other day has: their messages and helpers, what
a student reads when a child crashes or a function is still a stub, and the seed.
(The corpus proof, common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib

from tests.checks import corpus
from tests.checks.conftest import uses

DAY = corpus.COURSE.find_day("day-07")


def checks_module(name: str = "checks"):
    """A module of the day's checks folder, imported as the engine does (a package)."""
    return corpus.checks_module(DAY, name)


def test_every_message_the_checks_use_is_in_the_catalogue():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r'"((?:what|brief|idea)\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text())
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text())
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert len(used) > 50 and used <= known, sorted(used - known)


def test_first_sentence_and_numbers():
    module = checks_module()
    assert module.first_sentence("The earlier run showed test_divide_by_zero failing: divide() lets "
                                 "a zero divisor through. I will fix it.") == (
        "The earlier run showed test_divide_by_zero failing: divide() lets a zero divisor through.")
    assert module.first_sentence("no full stop") == "no full stop"
    said = "cannot fork s-20261129-103309-7300 at 4: not a clean boundary; fork points: 2, 8, 9, 19"
    assert module.numbers_in(said) == {4, 2, 8, 9, 19}


def test_no_check_reads_a_committed_log():
    """Every log a check reads is generated for the run: none is committed to be memorised."""
    assert not list(DAY.checks_dir.rglob("*.jsonl"))


def test_the_wire_shape_round_trips():
    live = checks_module("live")
    message = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "run_command",
                                                                    "args": {"command": "ls 中文"}}]}
    wire = {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "run_command", "arguments": '{"command": "ls 中文"}'}}]}
    assert live.from_wire(wire) == live.to_wire(message)


# --------------------------------------------------------------------------- the seed

GRADE = """
import json, sys
from pathlib import Path
from grader.course import load_course
from grader.engine import run_day
course = load_course(sys.argv[1])
day = course.find_day("day-07")
seed = None if sys.argv[3] == "none" else int(sys.argv[3])
result = run_day(course, day, Path(sys.argv[2]), seed=seed, keep=True, select=["torn-tail", "bad-line-stops"])
logs = sorted(p for p in Path(result.run_root).rglob("log.jsonl"))
print(json.dumps({"seed": result.seed, "statuses": [c.status for c in result.checks],
                  "messages": [c.message for c in result.checks],
                  "logs": [p.read_bytes().hex() for p in logs], "run_root": result.run_root}))
"""


def _grade(lab, seed) -> dict:
    done = subprocess.run([sys.executable, "-c", GRADE, str(corpus.KIT / "course.toml"), str(lab), str(seed)],
                          capture_output=True, text=True, timeout=120, cwd=lab.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    import shutil
    shutil.rmtree(report.pop("run_root"), ignore_errors=True)
    return report


def test_the_same_seed_gives_the_same_inputs_and_results_and_no_seed_a_new_draw(tmp_path):
    lab = corpus.build_lab(DAY, tmp_path / "lab" / "day-07-session-resume", revert=None)  # the scaffold lab
    first, again = _grade(lab, 20261201), _grade(lab, 20261201)
    assert first == again and first["seed"] == 20261201
    assert first["statuses"] == ["failed", "failed"] and len(first["logs"]) >= 10
    unseeded = [_grade(lab, "none") for _ in range(2)]
    assert unseeded[0]["seed"] != unseeded[1]["seed"]
    assert unseeded[0]["logs"] != unseeded[1]["logs"] and unseeded[0]["logs"] != first["logs"]


# --------------------------------------------------------------------------- what a student reads

@uses("day-07/mutants/replay_crashes")
def test_a_crash_names_the_exception_and_the_lab_file(gradings):
    graded = gradings.get("day-07/mutants/replay_crashes")
    check = graded.check("replay-counts")
    assert "replay() raised TypeError" in check["message"] and "replay.py, line" in check["message"], check
    resume = graded.check("resume-across-processes")
    assert "exited with status 1" in resume["message"] and "TypeError" in resume["seen"], resume


@uses("day-07/scaffold-lab")
def test_a_stub_shows_its_todo_and_a_trap_what_it_did(gradings):
    graded = gradings.get("day-07/scaffold-lab")
    assert "replay() is still a stub: NotImplementedError: TODO(E2)" in graded.check("replay-counts")["message"]
    resume = graded.check("resume-across-processes")
    assert "not implemented yet: TODO(E2)" in resume["seen"], resume
    torn = graded.check("torn-tail")["message"]
    assert re.fullmatch(r"expected reading to stop at line \d+ \(.+\), but it returned \d+ events and reported nothing",
                        torn), torn
    assert "a fork never cuts or grows the parent" in graded.check("parent-untouched")["message"]


@uses("day-07/revert-E5")
def test_a_parent_cut_by_the_fork_trap_is_said_to_shrink_and_blamed_on_e5(gradings):
    """After E1-E4, the E5 trap cuts the damaged file back to the fork point: the bonus
    checks say it shrank (never "new bytes were written") and name fork() (E5)."""
    graded = gradings.get("day-07/revert-E5")
    for check_id, point in (("damaged-then-continue", 9), ("dangling-tool-call", 2), ("missing-line", 9)):
        message = graded.check(check_id)["message"]
        assert re.search(r"but it shrank from \d+ to \d+ bytes \(its first \d+ of \d+ lines are left\)", message), message
        assert "fork() (E5)" in message and "new bytes" not in message and "grew" not in message, message
        if point is not None:
            assert f"recovery fork's point (seq {point})" in message, message


@uses("day-07/mutants/reader_repairs_torn_tail", "day-07/mutants/fork_notes_parent")
def test_a_changed_damaged_file_names_the_point_whose_code_changed_it(gradings):
    repaired = gradings.get("day-07/mutants/reader_repairs_torn_tail").check("damaged-then-continue")["message"]
    assert "shrank" in repaired and "read_events (E3)" in repaired and "(E5)" not in repaired, repaired
    noted = gradings.get("day-07/mutants/fork_notes_parent")
    for check_id in ("damaged-then-continue", "dangling-tool-call", "missing-line"):
        message = noted.check(check_id)["message"]
        assert re.search(r"but it grew from \d+ to \d+ bytes \(1 line added at its end\)", message), message
        assert "fork() (E5)" in message, message


def test_the_harness_and_the_checks_digest_long_strings_alike():
    """An answer holding a line of more than 1 MiB is digested in the harness; what it should
    have been is digested in the grader: one function, the harness side's of the check kit."""
    from grader.checkkit import harnesskit
    calls = checks_module("calls")
    harness = (DAY.checks_dir / "harnesses" / "session_functions.py").read_text(encoding="utf-8")
    assert calls.digest_long is harnesskit.digest_long
    assert "def digest_long" not in harness and "digest_long" in harness.split("from harnesskit import")[1].split("\n")[0]
    long = "日" * 100_001
    digested = calls.digest_long({"a": [long, "short"], "b": 3})
    assert digested["a"][1] == "short" and digested["b"] == 3 and digested["a"][0]["chars"] == 100_001
    assert calls.digest_long(long) != calls.digest_long(long[:-1] + "月")


def test_every_draw_holds_the_cases_the_checks_are_about():
    """In every draw: the recorder gets a call blocked by the gate and one by the loop guard
    (each with its ToolFinished); an empty reply without tool calls is a fork point of a
    generated log; a log with a line (a tool result) of more than 1 MiB."""
    import random
    from grader.checkkit import loggen
    recording, checks = checks_module("recording"), checks_module()
    for seed in range(5):
        events = recording.agent_events(random.Random(seed))
        ends = [e for e in events if e["kind"] == "ToolFinished"]
        assert {e["blocked_by"] for e in ends} == {None, "approval", "loop_guard"}
        assert all(recording.expected_line(e)[0] == "tool_end" for e in ends)
        blocked = [e for e in ends if e["blocked_by"]]
        assert all(e["ok"] is False and e["ms"] == 0 for e in blocked)
        log = checks._with_empty_answer(random.Random(seed))
        answer = log.events[7]["message"]
        assert answer == {"role": "assistant", "content": ""} and log.fork_points == [2, 8, 9, 19]
        long = loggen.round1_log(random.Random(seed), long_output=True)
        tool = [e["message"]["content"] for e in long.events if e["type"] == "message" and e["message"]["role"] == "tool"]
        assert len(long.lines[5]) > 1024 * 1024 and len(tool[0]) > 1024 * 1024
