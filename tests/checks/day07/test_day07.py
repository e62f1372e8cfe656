"""Day 07's checks, the parts of them no other day has: their messages and helpers,
and what a student reads when a child crashes or a function is still a stub.
(The corpus proof, common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib

from tests.checks import corpus
from tests.checks.conftest import uses

DAY = corpus.COURSE.find_day("day-07")


# --------------------------------------------------------------------------- the module itself

def checks_module():
    spec = importlib.util.spec_from_file_location("day07_checks_under_test", DAY.checks_module)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_check_is_there_in_order():
    module = checks_module()
    tests = [name for name in vars(module) if name.startswith("test_")]
    assert tests == ["test_" + c.id.replace("-", "_") for c in DAY.all_checks]


def test_every_message_the_checks_use_is_in_the_catalogue():
    source = DAY.checks_module.read_text(encoding="utf-8")
    used = set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', source))
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text())
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text())
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert used and used <= known, sorted(used - known)


def test_first_sentence_and_numbers():
    module = checks_module()
    assert module.first_sentence("The earlier run showed test_divide_by_zero failing: divide() lets "
                                 "a zero divisor through. I will fix it.") == (
        "The earlier run showed test_divide_by_zero failing: divide() lets a zero divisor through.")
    assert module.first_sentence("no full stop") == "no full stop"
    said = "cannot fork s-20261129-103309-7300 at 4: not a clean boundary; fork points: 2, 8, 9, 19"
    assert module.numbers_in(said) == {4, 2, 8, 9, 19}


def test_cut_last_line(tmp_path):
    module = checks_module()
    log = tmp_path / "x.jsonl"
    log.write_bytes(b'{"a": 1}\n{"b": 22222}\n')
    module.cut_last_line(log)
    assert log.read_bytes() == b'{"a": 1}\n{"b": '  # 13 bytes, cut to 6
    log.write_bytes(b'{"a": 1}\n{"b": 22222}\n')
    module.cut_last_line(log, keep_newline_only=True)
    assert log.read_bytes() == b'{"a": 1}\n{"b": 22222}'


def test_canonical_logs_have_the_contract_shape():
    logs = DAY.checks_dir / "logs"
    for name, count in (("round1", 8), ("two-rounds", 19), ("hello", 4)):
        files = list((logs / name).glob("*.jsonl"))
        assert len(files) == 1 and re.fullmatch(r"s-\d{8}-\d{6}-[0-9a-f]{4}", files[0].stem)
        lines = files[0].read_bytes().splitlines(keepends=True)
        assert len(lines) == count and all(line.endswith(b"\n") for line in lines)
    round1 = next((logs / "round1").glob("*.jsonl")).read_bytes()
    two = next((logs / "two-rounds").glob("*.jsonl")).read_bytes()
    assert two.startswith(round1), "the two-round log continues the round-1 session"


# --------------------------------------------------------------------------- what a student reads

@uses("day-07/mutants/replay_crashes")
def test_a_crashed_child_shows_the_end_of_its_traceback(gradings):
    graded = gradings.get("day-07/mutants/replay_crashes")
    check = graded.check("resume-across-processes")
    assert "exited with status 1" in check["message"]
    assert "TypeError" in check["seen"] and "not subscriptable" in check["seen"], check
    inspected = graded.check("replay-counts")  # log inspect turns the crash into a note
    assert "replay() raised TypeError" in inspected["message"] and "replay.py, line" in inspected["message"], inspected


@uses("day-07/scaffold-lab")
def test_a_stub_shows_its_not_implemented_line(gradings):
    graded = gradings.get("day-07/scaffold-lab")
    resume = graded.check("resume-across-processes")
    assert "not implemented yet: TODO(E2)" in resume["seen"], resume
    replay = graded.check("replay-counts")
    assert "replayed" in replay["message"] and "TODO(E2)" in replay["message"], replay
    torn = graded.check("torn-tail")
    assert torn["message"] == ("expected reading to stop at line 8 (the last line cut in half), "
                               "but it returned 7 events and reported nothing")
