"""The README's promises, held to the kit: its set-up commands are the ones CI runs,
its day table is the manifest's, its links lead somewhere, its exit codes are the
CLI's, and its recovery recipe does what the text under it says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from grader.commands import common
from grader.course import load_course

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COURSE = load_course(ROOT / "course.toml")


def section(title: str) -> str:
    """The text of one `## title` section."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert match, f"README has no section '## {title}'"
    return match.group(1)


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def words(command: str) -> list[str]:
    """A command's words, with pip's -q left out (CI keeps its log short)."""
    return [w for w in command.split() if w != "-q"]


def test_the_test_command_is_the_one_ci_runs():
    blocks = shell_blocks(section("Quick start"))
    assert len(blocks) == 2, "Quick start has exactly two commands: the main job and the tests"
    main_job, tests = (b.strip() for b in blocks)
    assert main_job.endswith("grader check day-07")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_command = next(line for line in ci.splitlines() if "pytest" in line and not line.startswith("#"))
    assert words(ci_command) == words(tests)


def test_the_day_table_is_the_manifest():
    rows = [line for line in section("The days").splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == len(COURSE.days)
    for day, row in zip(COURSE.days, rows):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == str(int(day.id.split("-")[1]))
        assert f"(labs/{day.slug}/README.md)" in cells[1], cells[1]
        assert (ROOT / "labs" / day.slug / "README.md").is_file()
        core = [c for c in day.all_checks if not c.bonus]
        bonus = [c for c in day.all_checks if c.bonus]
        expected = f"{len(core)}" + (f" + {len(bonus)} bonus" if bonus else "")
        assert cells[3] == expected, f"{day.id}: README says {cells[3]!r}, course.toml has {expected!r}"


def test_every_relative_link_leads_to_a_file():
    links = re.findall(r"\]\(([^)#]+)\)", README)
    relative = [link for link in links if "://" not in link]
    assert relative
    missing = [link for link in relative if not (ROOT / link).exists()]
    assert not missing


def test_the_exit_code_table_is_the_clis():
    table = dict(re.findall(r"^\| (\d) \| (.+?) \|$", section("For CI"), re.M))
    assert sorted(map(int, table)) == sorted({common.EXIT_OK, common.EXIT_FAILED, common.EXIT_USAGE, common.EXIT_TAMPERED})
    assert "every core check passed" in table[str(common.EXIT_OK)]
    assert "failed" in table[str(common.EXIT_FAILED)]


def test_the_recovery_recipe_works_as_written(tmp_path):
    """Run the recipe's lines in bash from the kit's root, the mock standing in for the
    model: the resume names line 19 and seq 17 (the end of the last finished tool round), keeps
    round 1 and round 2's finished tool rounds, and leaves the log as it was."""
    (recipe,) = shell_blocks(section("Practising recovery by hand"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MCA_", "MOCK"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", TMPDIR=str(tmp_path))
    # After the cut, print the log's hash; after the resume, print it again.
    lines = recipe.strip().splitlines()
    cut = next(i for i, line in enumerate(lines) if "os.truncate" in line)
    script = "\n".join(["set -eu", *lines[:cut + 1], 'sha256sum "$log" >&2', *lines[cut + 1:],
                        'sha256sum "$log" >&2', 'wc -l < "$log" >&2'])
    if shutil.which("sha256sum") is None:
        script = script.replace('sha256sum "$log"', 'python3 -c "import hashlib,sys;'
                                ' print(hashlib.sha256(open(sys.argv[1],\'rb\').read()).hexdigest())" "$log"')
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "log stopped at line 19: last line incomplete" in out, out
    assert "from seq 17 (the end of a finished tool round, its results kept)" in out, out
    hashes = re.findall(r"^([0-9a-f]{64})", done.stderr, re.M)
    assert len(hashes) == 2 and hashes[0] == hashes[1], out
    listing = done.stdout[done.stdout.find("you > session"):]
    assert "user: run the tests" in listing and "user: fix it" in listing, out
    assert "[calls edit_file]" in listing and "tool: exit status 0" in listing, out   # round 2's finished rounds
    assert "forked from" in listing and "at seq 17" in listing, out
