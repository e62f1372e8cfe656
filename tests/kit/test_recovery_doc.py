"""docs/recovery-practice.md quotes the CLI: run its cases as written and compare.

The bench set-up, the helpers and every case's command are taken from the page itself
and run in bash on a scratch copy of the day-7 reference, the mock standing in for the
model. For each row of the cases table the quoted `log inspect` reading (the first
code span of its last column) must be the `log:` line the CLI prints now, and a count of
events there must be the CLI's; each "After case N" block must be, line for line, what
the resume prints on stderr (session ids, which differ per run, set aside)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/recovery-practice.md").read_text(encoding="utf-8")
SOLUTION = ROOT / "solutions/day-07-session-resume"
ID = re.compile(r"s-\d{8}-\d{6}-[0-9a-f]{4}")


def blocks(text: str) -> list[str]:
    return re.findall(r"^```\n(.*?)^```", text, re.S | re.M)


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DOC, re.S | re.M)
    assert match, f"the page has no section '## {title}'"
    return match.group(1)


def cases() -> dict[int, tuple[str, str]]:
    """{case number: (command, what `log inspect` says)} from the table."""
    rows = re.findall(r"^\| (\d+) \| [^|]+ \| (.+?) \| (.+) \|$", section("The cases"), re.M)
    found = {}
    for number, command, says in rows:
        found[int(number)] = (command.strip().strip("`") if command.startswith("`") else command, says)
    return found


def spliced() -> dict[int, str]:
    """The commands of the cases the table sends "see below" (`... > $F     # case 7: ...`)."""
    lines = "\n".join(blocks(section("The cases"))).splitlines()
    return {int(m.group(2)): m.group(1).strip() for line in lines
            if (m := re.match(r"(.*)#\s*case (\d+):", line))}


def other_session_lines() -> list[str]:
    lines = "\n".join(blocks(section("The cases"))).splitlines()
    return [line for line in lines if line.startswith(("MOCK=1", "B="))]


def after_blocks() -> dict[int, tuple[list[str], bool]]:
    """{case number: (the quoted resume output, exit status 1 said)} of the "After case N" paragraphs."""
    text = section("What the agent says when you resume")
    found = {}
    for match in re.finditer(r"^After case (\d+)(.*?):\n\n```\n(.*?)^```", text, re.S | re.M):
        found[int(match.group(1))] = (match.group(3).splitlines(), "exit status 1" in match.group(2))
    return found


def in_tmp(text: str, tmp: Path) -> str:
    return text.replace("/tmp/", f"{tmp}/")


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Run the page: set up the bench once, then each case after putting the clean log
    back; print `log inspect` and the resume's stderr and status between markers."""
    tmp = tmp_path_factory.mktemp("bench")
    lab = tmp / "lab"
    shutil.copytree(SOLUTION, lab, ignore=shutil.ignore_patterns(".sessions", "__pycache__"))
    setup, reset, helpers = blocks(section("Set up a practice bench"))[:3]
    resume = next(line for line in blocks(section("What the agent says when you resume"))[0].splitlines()
                  if "--resume" in line)
    table, below = cases(), spliced()
    script = ["set -u", in_tmp(setup, tmp), in_tmp(helpers, tmp), *map(lambda l: in_tmp(l, tmp), other_session_lines())]
    for number in sorted(table):
        command = table[number][0]
        command = below[number] if command == "see below" else command
        script += [f"echo '@@ case {number}'", in_tmp(reset, tmp), in_tmp(command, tmp),
                   "echo '@@ inspect'", "python -m mca log inspect $ID",
                   "echo '@@ resume'", f"printf '/exit\\n' | {resume} 2>&1 >/dev/null; echo \"@@ status $?\""]
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    for name in ("python", "python3"):
        (bin_dir / name).symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCA_", "MOCK", "PYTEST"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", TMPDIR=str(tmp))
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=lab, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = {}
    for part in done.stdout.split("@@ case ")[1:]:
        head, rest = part.split("\n", 1)
        inspect, tail = rest.split("@@ resume\n")
        said, status = tail.rsplit("@@ status ", 1)
        out[int(head)] = (inspect.replace("@@ inspect\n", ""), said.splitlines(), int(status.strip()))
    return out


def test_the_page_has_its_cases():
    assert sorted(cases()) == list(range(1, 12))
    assert set(spliced()) == {7, 8} and {1, 4, 9, 10, 11} <= set(after_blocks())


@pytest.mark.parametrize("number", sorted(cases()))
def test_each_case_reads_as_the_page_says(ran, number):
    _command, says = cases()[number]
    inspect, _said, _status = ran[number]
    quoted = re.findall(r"`([^`]+)`", says)
    log = re.search(r"^  log: (.*)$", inspect, re.M)
    assert log and log.group(1) == quoted[0], f"case {number}: the page says {quoted[0]!r}, the CLI:\n{inspect}"
    events = re.search(r"(\d+) events?\b", says)
    if events:
        assert f"events: {events.group(1)} " in inspect, f"case {number}: the page says {says!r}, the CLI:\n{inspect}"
    for extra in quoted[1:]:
        if extra.startswith("fork points"):
            assert f"  {extra}\n" in inspect, f"case {number}: {extra!r} not in\n{inspect}"


@pytest.mark.parametrize("number", sorted(after_blocks()))
def test_each_quoted_resume_is_what_the_cli_prints(ran, number):
    quoted, fails = after_blocks()[number]
    _inspect, said, status = ran[number]

    def plain(lines):
        return [ID.sub("<id>", line) for line in lines]
    assert plain(quoted) == plain(said), f"case {number}: the page quotes\n" + "\n".join(quoted) + \
        "\nthe CLI prints\n" + "\n".join(said)
    assert status == (1 if fails else 0), (number, status)
    parent = ID.findall(quoted[-1] if fails else "\n".join(quoted))
    if not fails:
        # the recovery fork named is the session resumed, and the damaged file keeps its name
        forked = [ID.findall(line) for line in said if line.startswith("continuing in recovery fork ")]
        resumed = [ID.findall(line) for line in said if line.startswith("resumed ")]
        assert forked and resumed and forked[0][0] == resumed[0][0] and forked[0][1] != forked[0][0], said
        assert parent, quoted
