"""Day 01's checks, the parts of them no other day has: every check is there in manifest
order, every sentence they say is in the catalogue, and the helpers that read the
REPL and compare histories. (The corpus proof, common to every day, is
tests/checks/test_corpus.py.)"""

from __future__ import annotations

import random
import re
import tomllib
from types import SimpleNamespace

from tests.checks import corpus
from tests.checks.conftest import uses

DAY = corpus.COURSE.find_day("day-01")


def checks_module(name: str = "checks"):
    """A module of the day's checks folder, imported as the engine does (a package)."""
    return corpus.checks_module(DAY, name)


def test_every_message_the_checks_use_is_in_the_catalogue():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r'"((?:what|brief|idea)\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text(encoding="utf-8"))
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text(encoding="utf-8"))
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert len(used) > 40 and used <= known, sorted(used - known)
    ours = {f"{section}.{name}" for section, entries in catalogue.items() for name in entries}
    assert ours <= used, f"sentences no check says: {sorted(ours - used)}"


def test_answers_splits_at_each_prompt():
    prompts = checks_module("prompts")
    stdout = "mca: type a request, /exit to leave\nyou > Nice to meet you, 李娜.\nyou > \nyou > "
    assert prompts.answers(stdout) == ["Nice to meet you, 李娜.", "", ""]


def test_first_difference_names_count_role_then_content():
    roles = checks_module("roles")
    say = lambda key, **values: f"{key} {sorted(values.items())}"  # noqa: E731
    user, bot = {"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}
    assert roles.first_difference(say, [user, bot], [user, bot]) is None
    assert roles.first_difference(say, [user], [user, bot]).startswith("diff.count")
    assert roles.first_difference(say, [bot, user], [user, bot]).startswith("diff.role")
    assert roles.first_difference(say, [user, dict(bot, content="c")], [user, bot]).startswith("diff.content")


def test_names_and_lines_fit_the_mock_and_the_prompt():
    inputs = checks_module("inputs")
    rng = random.Random(7)
    for _ in range(200):
        name = inputs.random_name(rng)
        assert re.fullmatch(r"[^\s.,!?]+", name), name  # what the mock's NAME pattern takes back
        line = inputs.typed_line(rng)
        assert "\n" not in line and line == line.strip() and not line.startswith("/")
        assert "name" not in line.lower()


def test_every_conversation_holds_an_empty_and_a_padded_reply_before_its_last_turn():
    """The edge cases history-carried and system-prompt-once are about are in every draw,
    not only on some seeds: a strip or a dropped empty reply fails on any seed."""
    inputs = checks_module("inputs")
    for seed in range(300):
        rng = random.Random(seed)
        turns = rng.randint(3, 7)
        users, replies = inputs.conversation(rng, turns, repeat=seed % 2 == 0)
        carried = replies[:-1]  # the last reply is never sent back
        assert len(users) == len(replies) == turns
        assert "" in carried, (seed, replies)
        assert any(r and r != r.strip() and r[0].isspace() and r[-1].isspace() for r in carried), (seed, replies)
        if seed % 2 == 0:
            assert len(set(users)) < len(users), (seed, users)


def test_every_reply_text_has_white_space_and_a_line_break_at_its_ends():
    inputs = checks_module("inputs")
    rng = random.Random(11)
    for _ in range(300):
        text = inputs.padded_text(rng)
        assert text[0].isspace() and text[-1].isspace() and "\n" in text[len(text.rstrip()):], repr(text)
        assert text.strip(), repr(text)


def test_the_stub_that_raised_is_named_from_the_traceback():
    calls = checks_module("calls")

    def ended(stderr):
        return SimpleNamespace(stderr=stderr)  # all stub_that_raised reads of a ChildResult

    traceback = ('Traceback (most recent call last):\n  File "/x/lab/mca/gateway/openai_compat.py", line 9, in complete\n'
                 '    return parse_reply(response.read())\n'
                 'During handling of the above exception, another exception occurred:\n\n'
                 'Traceback (most recent call last):\n  File "/x/lab/mca/cli.py", line 3, in main\n    x()\n'
                 '  File "/x/lab/mca/gateway/openai_compat.py", line 122, in error_of\n'
                 '    raise NotImplementedError("TODO(E4): turn an HTTP error ...")\n'
                 'NotImplementedError: TODO(E4): turn an HTTP error ...\n')
    assert calls.stub_that_raised(ended(traceback)) == "error_of"
    assert calls.stub_that_raised(ended(traceback.replace("error_of", "build_request"))) == "build_request"
    assert calls.stub_that_raised(ended(traceback.replace("NotImplementedError: TODO", "KeyError: TODO"))) is None


@uses("day-01/scaffold-lab", "day-01/revert-E3", "day-01/revert-E4")
def test_what_a_student_reads_names_the_stub_that_raised_and_the_whole_request(gradings):
    """server-unreachable names the stub whose TODO raised (build_request or error_of), and
    history-carried shows the request's roles as sent, every system message included."""
    lab = gradings.get("day-01/scaffold-lab")
    assert lab.check("history-carried")["seen"] == "system, system, user", lab.check("history-carried")
    e3 = gradings.get("day-01/revert-E3").check("server-unreachable")["message"]
    assert "build_request is still a stub" in e3, e3
    e4 = gradings.get("day-01/revert-E4").check("server-unreachable")["message"]
    assert "error_of, which is still a stub" in e4 and "build_request" not in e4, e4
