"""Day 04's checks, the parts of them no other day has: every check is there in manifest
order, every sentence they say is in the catalogue, the patterns that read a tool's
result, the generated inputs, and the harnesses' process safety. (The corpus proof,
common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import random
import re
import tomllib

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-04")


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


def test_timed_out_reads_the_limit_in_the_usual_wordings():
    pattern = checks_module().TIMED_OUT
    for text, limit in [("error: timed out after 0.37 s: the command ...", "0.37"),
                        ("Timed out after 0.5 seconds; its process group was stopped.", "0.5"),
                        ("command timed out after 1.25s", "1.25"), ("timeout after 2 sec", "2")]:
        found = pattern.search(text)
        assert found and found.group(1) == limit, text
    assert not pattern.search("exit status 0 (12 ms)\n--- stdout ---\nquick 00000 run 中文 abcd")
    assert not pattern.search("the command took too long and was stopped")


def test_statuses_finds_every_claimed_status_and_nothing_else():
    statuses = checks_module().statuses
    assert statuses("exit status 3 (12 ms)\n--- stdout ---\nout 00000 fix 中文 abc") == [3]
    assert statuses("[stdout]\nhello\n[exit code: 94]") == [94]
    assert statuses("exit_code=7") == [7] and statuses("returncode: 0") == [0] and statuses("exited with 2") == [2]
    assert statuses("out 00001 tests 测试 qwer\nRan 4 tests in 0.001s") == []


def test_the_cut_pattern_knows_the_provided_marker():
    cut = checks_module().CUT
    assert cut.search("head\n[... 1234 of 56789 characters cut ...]\ntail")
    assert cut.search("(output truncated)") and cut.search("[3000 chars omitted]")
    assert cut.search("head\n[... 1,234 more characters ...]\ntail") and cut.search("(rest not shown)")
    assert cut.search("... 40 more lines ...") and cut.search("[shortened]")
    assert not cut.search("out 00000 agent 会話 abcd\nerr 00000 fix 修复 efgh")


def test_generated_names_and_lines_fit_what_the_checks_assume():
    inputs = checks_module("inputs")
    rng = random.Random(4)
    for _ in range(300):
        name = inputs.file_name(rng)
        assert not re.search(r"\d", name) and "/" not in name, name  # a count in a message is never the name's
        line = inputs.code_line(rng)
        assert "\n" not in line and "\r" not in line, line
        assert "exit" not in " ".join(inputs.stream_lines(rng, "out", 3)).lower()


def test_ambiguous_and_missing_inputs_hold_their_counts():
    inputs = checks_module("inputs")
    rng = random.Random(11)
    for _ in range(200):
        text, line, line_count, piece, piece_count, unique = inputs.ambiguous_file(rng)
        assert {line_count, piece_count} == {2, 3}
        assert text.count(line) == line_count and text.count(piece) == piece_count and text.count(unique) == 1
        rows = text.splitlines()
        assert sum(row == line for row in rows) == line_count  # the whole line on lines of its own
        assert any(row.count(piece) == 2 for row in rows)  # two copies on one line, in every draw:
        assert sum(piece in row for row in rows) == piece_count - 1  # counting lines counts one too few
        text, lines, misses, target = inputs.missing_cases(rng)
        assert len(misses) == 5 and all(old not in text for _, old in misses)
        kinds = dict(misses)
        cased = next(old for kind, old in kinds.items() if kind == "what.other_case")
        dotted = next(old for kind, old in kinds.items() if kind == "what.letter_as_dot")
        assert text.lower().count(cased.lower()) == 1 and len(re.findall(dotted, text)) == 1
        assert any(text.count(l) == 1 and l != target for l in lines)


def test_calc_additions_keep_the_buggy_line_unique_and_count_the_tests():
    checks = checks_module()
    rng = random.Random(5)
    for _ in range(50):
        code, test_name, test_code, cases = checks.calc_additions(rng)
        assert checks.BUGGY_LINE not in code and test_name.startswith("test_") and test_name.endswith(".py")
        assert test_code.count("    def test_") == cases >= 1
        compile(code, "calc-additions", "exec")
        compile(test_code, test_name, "exec")


def test_harnesses_never_signal_a_group_or_a_pid_they_have_not_proven_theirs():
    """The process-safety rules of the day, on the harness sources: no killpg anywhere; the
    timeout harness signals only through a pidfd after checking the process is its own
    descendant; the atomic harness signals only the writer it has just forked."""
    harnesses = DAY.checks_dir / "harnesses"
    for path in harnesses.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "killpg" not in source and "os.killpg" not in source, path.name
    group = (harnesses / "timeout_group.py").read_text(encoding="utf-8")
    assert "os.kill(" not in group and group.count("pidfd_send_signal(") == 1
    body = group[group.index("def kill_if_ours"):group.index("answer = {")]
    assert body.index("pidfd_open") < body.index("if ours(pid)") < body.index("pidfd_send_signal")
    ours = group[group.index("def ours"):group.index("def kill_if_ours")]
    assert "pid <= 1" in ours and "pid == ME" in ours and "in descendants(table)" in ours
    assert "ME = os.getpid()" in group
    atomic = (harnesses / "atomic_writer.py").read_text(encoding="utf-8")
    kills = re.findall(r"os\.kill\((?:os\.getpid\(\)|\w+), [\w.]+\)", atomic)  # its own forked, unreaped writers, or a writer itself
    assert atomic.count("os.kill(") == len(kills)
    assert kills and set(kills) <= {"os.kill(pid, signal.SIGKILL)", "os.kill(os.getpid(), signal.SIGKILL)"}
    assert atomic.count("os.kill(os.getpid()") == 2 and atomic.count("os.kill(pid,") == 4  # rename and open hooks
    for at in [m.start() for m in re.finditer(r"os\.kill\(pid,", atomic)]:
        assert atomic.rindex("pid = os.fork()", 0, at) < at < atomic.index("os.waitpid(pid, 0)", at)
    for path in (DAY.checks_dir).glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "os.kill" not in source and "killpg" not in source, path.name


def test_every_draw_kills_a_first_write_and_watches_the_fsync():
    """write-is-atomic's harness, in every draw (not left to the seed): the first write of a new
    file is killed at random moments and once at the open of the target's own name (the round
    `None` is always added); the rename rounds hook os.fsync and os.fdatasync beside os.replace
    and os.rename, and report whether the file renamed was synced; the check reads both."""
    atomic = (DAY.checks_dir / "harnesses" / "atomic_writer.py").read_text(encoding="utf-8")
    assert 'for phase in fresh["phases"] + [None]:' in atomic
    assert "builtins.open = io.open = hooked_open" in atomic and "os.open = hooked_os_open" in atomic
    assert 'for name in ("fsync", "fdatasync"):' in atomic and 'for name in ("replace", "rename"):' in atomic
    assert atomic.index('for name in ("fsync", "fdatasync"):') < atomic.index('for name in ("replace", "rename"):')
    checks = (DAY.checks_dir / "checks.py").read_text(encoding="utf-8")
    assert '"fresh": fresh' in checks and 'not entry.get("fsynced")' in checks
    assert 'len(fresh_seen) != len(fresh["phases"]) + 1' in checks


def test_the_timeout_harness_finds_the_commands_processes_from_outside():
    """A lab can read every file of its workdir: a check that learnt the grandchild's PID from
    a file the command writes could be passed by killing what that file names. The commands
    of timeout-kills-group write no file, and the harness reads none but its job: it finds the
    command's processes as its own process tree in /proc, the subreaper of all it starts (the
    corpus's cheat_e2_kills_what_pid_files_name proves the difference). Nothing marks them in a
    way the lab can see: no variable in the environment, no name in the command but the
    random sleep lengths."""
    group = (DAY.checks_dir / "harnesses" / "timeout_group.py").read_text(encoding="utf-8")
    assert "read_text(" not in group and "read_bytes(" not in group  # its job comes through the kit's harnesskit
    assert "job as read_job" in group and all(
        opened.startswith('f"/proc/') for opened in re.findall(r"(?<![\w.])open\((.*)", group))
    assert 'os.listdir("/proc")' in group and "/environ" not in group and "os.environ" not in group
    assert "prctl(36, 1" in group  # PR_SET_CHILD_SUBREAPER: an orphan of the command stays in the tree
    checks = (DAY.checks_dir / "checks.py").read_text(encoding="utf-8")
    timeout = checks[checks.index("def test_timeout_kills_group"):checks.index("def came_back")]
    assert "$$" not in timeout and "$!" not in timeout and ".pid" not in timeout and "pid_files" not in timeout
    assert "mark_var" not in checks and "token" not in timeout and "_ROLE" not in checks
