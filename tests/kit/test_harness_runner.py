"""The check kit's one harness runner: the harness side (grader/checkkit/harnesskit.py) in a
real lab child, read back by the grader side (ctx.harness_json, ctx.harness_answers)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.checkkit import CheckFailed, harnessrun
from grader.checkkit.context import CheckContext
from grader.checkkit.messages import Messages
from grader.course import Agent
from grader.spawn import LabRunner

THING = '''\
def ok(text):
    return text.upper()


def stub(text):
    raise NotImplementedError("TODO(E1): shout the text")


def broken(text):
    return {}[text]
'''

CALLS = """
from harnesskit import answer, report, run


def main(job):
    print('{"said": "a line of JSON the lab printed: not an answer, it has no tag"}')
    from mca import thing
    for name, text in job["calls"]:
        report(answer(lambda: {"said": getattr(thing, name)(text)}))


run(main)
"""


@pytest.fixture
def ctx(tmp_path) -> CheckContext:
    lab = tmp_path / "lab"
    (lab / "mca").mkdir(parents=True)
    (lab / "mca" / "__init__.py").write_text("", encoding="utf-8")
    (lab / "mca" / "thing.py").write_text(THING, encoding="utf-8")
    agent = Agent(package="mca")
    runner = LabRunner(lab=lab, agent=agent)
    return CheckContext(lab=lab, day=None, course=SimpleNamespace(agent=agent), fixtures=tmp_path, sample=None,
                        keep=False, run_root=tmp_path / "run", seed=1, runner=runner,
                        say=Messages.for_day(tmp_path / "no-day", lang="en"), current="a-check")


def test_the_harness_side_reports_ok_stub_and_raised_as_data_tagged_with_its_name(ctx):
    calls = [["ok", "hi"], ["stub", "hi"], ["broken", "hi"], ["ok", "日本"]]
    answers = ctx.harness_answers("calls", {"calls": calls}, count=len(calls), calls="thing", code=CALLS)
    assert [a["harness"] for a in answers] == ["calls"] * 4
    assert answers[0]["said"] == "HI" and answers[3]["said"] == "日本"
    assert answers[1]["stub"] == "NotImplementedError: TODO(E1): shout the text"
    assert answers[1]["where"] == "mca/thing.py, line 6"
    assert answers[2]["raised"] == "KeyError: 'hi'" and answers[2]["where"] == "mca/thing.py, line 10"
    assert ctx.harness_problem(answers[0], "ok()") is None
    stub = ctx.harness_problem(answers[1], "stub()")
    assert stub.message == "stub() is still a stub: NotImplementedError: TODO(E1): shout the text (mca/thing.py, line 6)"
    raised = ctx.harness_problem(answers[2], "broken()", on="'hi'")
    assert raised.message == "broken() raised KeyError: 'hi' (mca/thing.py, line 10) on 'hi'"


def test_one_answer_a_stub_in_it_fails_the_check_and_a_retry_reuses_the_script(ctx):
    script = ctx.harness("calls", CALLS)
    assert (script.parent / "util.py").is_file()
    assert "calls" not in script.name and "harness" not in script.name
    found = ctx.harness_json("calls", {"calls": [["ok", "a"]]}, calls="ok()", label="first", script=script)
    assert found["said"] == "A"
    with pytest.raises(CheckFailed) as failed:
        ctx.harness_json("calls", {"calls": [["stub", "a"]]}, calls="stub()", label="first", script=script)
    assert failed.value.message.startswith("stub() is still a stub: NotImplementedError: TODO(E1)")
    children = ctx.take_children()
    assert len(children) == 2 and children[0].shown == children[1].shown  # the same reproduce line
    assert json.loads((script.parent / f"{harnessrun.neutral('first')}.json").read_text(encoding="utf-8")) == {"calls": [["stub", "a"]]}


def test_a_lab_that_will_not_import_is_fatal_and_a_child_that_says_nothing_died(ctx):
    (Path(ctx.lab) / "mca" / "thing.py").write_text("raise RuntimeError('broken at import')\n", encoding="utf-8")
    with pytest.raises(CheckFailed) as failed:
        ctx.harness_answers("calls", {"calls": [["ok", "a"], ["ok", "b"]]}, count=2, calls="thing", code=CALLS)
    assert failed.value.message == "thing raised RuntimeError: broken at import (mca/thing.py, line 1)"
    with pytest.raises(CheckFailed) as died:
        ctx.harness_json("quiet", {}, calls="nothing()", code="import os\nos._exit(3)\n")
    assert died.value.message == "the grader's harness called nothing(), but the child ended before it could report"
    with pytest.raises(CheckFailed) as short:
        ctx.harness_answers("calls", {"calls": []}, count=1, calls="thing", code=CALLS.replace("from mca", "# "))
    assert short.value.message == "the grader's harness called thing on 1 inputs, but the child ended after 0"


def test_the_child_gets_the_harness_side_only_never_the_grader_package(ctx):
    found = ctx.harness_json("where", {}, calls="import", code="""
import sys
from harnesskit import report
try:
    import grader  # noqa: F401
    report(grader=True)
except ImportError:
    report(grader=False, kit=sys.modules["harnesskit"].__file__)
""")
    assert found["grader"] is False and Path(found["kit"]).name == "util.py"
