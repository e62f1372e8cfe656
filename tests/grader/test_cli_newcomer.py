"""What a newcomer met (issue 13), grader side: each through typer's CliRunner or a real
`python -m grader` child process (a shell standing in the lab, a terminal, Ctrl-C)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from freezegun import freeze_time
from typer.testing import CliRunner

from grader.cli import app

REPO = Path(__file__).resolve().parents[2]
LAB = "labs/day-01-hello"


@pytest.fixture
def cli():
    runner = CliRunner()
    return lambda *args, input=None, env=None: runner.invoke(app, [str(a) for a in args], input=input, env=env)


def child_env(course_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COLUMNS"))}
    env.update(PYTHONPATH=str(REPO), GRADER_COURSE=str(course_dir / "course.toml"))
    return env


def grader_argv(*args) -> list[str]:
    return [sys.executable, "-m", "grader", *map(str, args)]


def edit(course_dir: Path) -> Path:
    greet = course_dir / LAB / "toy/greet.py"
    greet.write_text('def greet(name):\n    return f"hello {name}"  # my fix\n')
    return greet


def state(course_dir: Path) -> str | None:
    path = course_dir / ".grader/state.json"
    return path.read_text() if path.exists() else None


# --------------------------------------------------------------------------- 1. reset/restore in place

def test_reset_and_restore_keep_the_lab_directory_itself(cli, course_dir):
    lab = course_dir / LAB
    inode = lab.stat().st_ino
    edit(course_dir)
    (lab / ".sessions").mkdir()
    (lab / ".sessions/s-1.jsonl").write_text("{}\n")
    with freeze_time("2026-11-29 10:22:33"):
        reset = cli("reset", "1", "--yes")
    assert reset.exit_code == 0, reset.stderr
    assert lab.stat().st_ino == inode                        # the same directory, new contents
    assert "my fix" not in (lab / "toy/greet.py").read_text() and not (lab / ".sessions").exists()
    saved = course_dir / ".grader/backups/day-01/20261129T102233Z"
    assert "my fix" in (saved / "toy/greet.py").read_text() and (saved / ".sessions/s-1.jsonl").exists()
    assert not [p.name for p in lab.parent.iterdir() if p.name.startswith(".")]   # no staging left beside it
    with freeze_time("2026-11-29 10:30:00"):
        restored = cli("restore", "1", "20261129T102233Z", "--yes")
    assert restored.exit_code == 0, restored.stderr
    assert lab.stat().st_ino == inode and "my fix" in (lab / "toy/greet.py").read_text()


def test_an_untouched_lab_is_not_backed_up(cli, course_dir):
    result = cli("reset", "1", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "the lab is untouched, nothing to back up" in result.stdout
    assert not (course_dir / ".grader/backups/day-01").exists()
    assert "restore" not in result.stdout          # there is nothing to bring back
    assert "[BACKUP]" not in result.stdout and "DAY" not in result.stdout


def test_a_shell_standing_in_the_lab_survives_a_reset(course_dir):
    """A real shell: cd into the lab, reset it, then run the agent and the grader from there."""
    lab = course_dir / LAB
    edit(course_dir)
    script = ('cd "$LAB" && "$PY" -m grader reset day-01 -y >/dev/null && pwd -P && '
              'test -f toy/greet.py && "$PY" -m grader check day-01 --only runs')
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=120,
                          env={**child_env(course_dir), "LAB": str(lab), "PY": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == str(lab.resolve())
    assert "1/1 passed" in done.stdout and "Traceback" not in done.stderr


def test_a_grader_started_in_a_deleted_directory_says_so_in_one_line(course_dir, tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    script = 'cd "$GONE" && rmdir "$GONE" && exec "$PY" -m grader check day-01'
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=60,
                          env={**child_env(course_dir), "GONE": str(gone), "PY": sys.executable})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no longer exists" in lines[0] and "cd " in lines[0], done.stderr


def test_a_deleted_cwd_through_the_cli(cli, course_dir, tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    here.rmdir()
    result = cli("list")
    assert result.exit_code == 2 and "no longer exists" in result.stderr and "`cd" in result.stderr
    assert "Traceback" not in result.stderr


# --------------------------------------------------------------------------- 2. --lab of something else

def test_lab_that_is_not_a_lab_of_the_day_exits_2_and_records_nothing(cli, course_dir, tmp_path):
    cli("check", "1")
    before = state(course_dir)
    empty = tmp_path / "not-a-lab"
    empty.mkdir()
    result = cli("check", "1", "--lab", empty)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"not a day-01 lab: {empty} has no toy/ package" in result.stderr
    partial = tmp_path / "partial"
    shutil.copytree(course_dir / LAB, partial)
    (partial / "toy/count.py").unlink()
    result = cli("check", "1", "--lab", partial)
    assert result.exit_code == 2 and "has no toy/count.py (the file of E2)" in result.stderr
    assert f"pass a day-01 lab: a directory made from {course_dir / LAB}" in result.stderr
    assert state(course_dir) == before


def test_another_lab_neither_writes_nor_moves_a_corrupt_state(cli, course_dir):
    path = course_dir / ".grader/state.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ not json")
    result = cli("check", "1", "--lab", course_dir / "solutions/day-01-hello", "--json")
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == "{ not json" and not path.with_name("state.json.bak").exists()


# --------------------------------------------------------------------------- 3. hint

def test_hint_by_number_by_exercise_point_and_next(cli, course_dir):
    cli("check", "1")                                 # greets (2), counts (3) and polite fail
    by_number = cli("hint", "1", "2")
    assert by_number.exit_code == 0 and "greets (hint 2 of 3)" in by_number.stdout
    by_point = cli("hint", "1", "e2")
    assert by_point.exit_code == 0 and "counts (hint 2 of 3)" in by_point.stdout
    assert "polite" not in by_point.stdout
    nxt = cli("hint", "1", "--next")                  # the first failing core check
    assert "greets (hint 3 of 3)" in nxt.stdout
    current = cli("hint", "1").stdout
    assert "greets (hint 3 of 3)" in current and "counts (hint 2 of 3)" in current
    wrong = cli("hint", "1", "9")
    assert wrong.exit_code == 2 and "numbered 1-3" in wrong.stderr
    wrong = cli("hint", "1", "E9")
    assert wrong.exit_code == 2 and "exercise point (E1, E2)" in wrong.stderr


# --------------------------------------------------------------------------- 4. a path course.toml got wrong

def _retarget(course_dir: Path, old: str, new: str) -> int:
    toml = course_dir / "course.toml"
    text = toml.read_text()
    assert old in text
    toml.write_text(text.replace(old, new, 1))
    return next(n for n, line in enumerate(toml.read_text().splitlines(), 1) if line.strip() == new)


def test_a_mistyped_lab_path_names_course_toml_and_reset_refuses_it(cli, course_dir):
    line = _retarget(course_dir, 'lab = "labs/day-01-hello"', 'lab = "labs/day-01-helo"')
    for args in (("check", "1"), ("reset", "1", "--yes"), ("restore", "1")):
        result = cli(*args)
        assert result.exit_code == 2, (args, result.stdout)
        assert f"course.toml line {line} (lab = \"labs/day-01-helo\")" in result.stderr, result.stderr
        assert "correct `lab` in course.toml" in result.stderr and "grader reset" not in result.stderr
    assert not (course_dir / "labs/day-01-helo").exists()


def test_a_mistyped_checks_dir_and_solution_name_their_lines(cli, course_dir):
    line = _retarget(course_dir, 'checks_dir = "checks/day01"', 'checks_dir = "checks/day1"')
    result = cli("check", "1")
    assert result.exit_code == 2 and f"course.toml line {line} (checks_dir" in result.stderr
    _retarget(course_dir, 'checks_dir = "checks/day1"', 'checks_dir = "checks/day01"')
    line = _retarget(course_dir, 'solution = "solutions/day-01-hello"', 'solution = "solutions/day-01-hallo"')
    result = cli("verify", "1")
    assert result.exit_code == 1 and f"course.toml line {line} (solution" in result.stdout


def test_a_deleted_lab_with_a_right_path_is_still_regenerated(cli, course_dir):
    shutil.rmtree(course_dir / LAB)
    result = cli("reset", "1", "--yes")
    assert result.exit_code == 0 and (course_dir / LAB / "toy/greet.py").is_file()


# --------------------------------------------------------------------------- 5. smaller ones

def test_backups_are_listed_with_score_changes_and_size(cli, course_dir):
    cli("check", "1")                                  # 1/3, recorded for exactly these files
    edit(course_dir)
    with freeze_time("2026-11-29 10:00:00"):
        cli("reset", "1", "--yes")                     # edited since the check
    cli("check", "1")
    (course_dir / LAB / "notes.txt").write_text("mine\n")
    cli("check", "1")                                  # checked as it is backed up
    with freeze_time("2026-11-29 11:00:00"):
        cli("reset", "1", "--yes")
    listing = cli("restore", "1")
    assert listing.exit_code == 0, listing.stderr
    rows = {line.split()[0]: line for line in listing.stdout.splitlines() if line.startswith("  2026")}
    newer, older = rows["20261129T110000Z"], rows["20261129T100000Z"]
    assert re.search(r"1/3 passed \(checked [^)]+\); 1 file changed; \d+ files, [\d.]+ (bytes|kB)", newer), newer
    assert "edited since" in older and "1 file changed" in older
    assert "bring one back with: grader restore day-01 20261129T110000Z" in listing.stdout
    assert "[BACKUP]" not in listing.stdout and " NAME" not in listing.stdout


def test_keep_prints_a_reproduce_line_for_every_failing_check(cli, course_dir):
    result = cli("check", "1", "--keep")
    out = result.stdout
    blocks = re.split(r"\n(?= [✓✗!x+-] )", out)
    failing = [b for b in blocks if b.startswith((" ✗", " x", " !"))]
    assert [b.split()[2] if b.split()[1] != "*" else b.split()[2] for b in failing] == ["greets", "counts", "polite"]
    for block in failing:
        assert "reproduce: " in block, block
    root = Path(out.split("scratch directories kept in ")[1].split()[0])
    shutil.rmtree(root)


def test_a_check_that_started_no_child_gets_a_grader_rerun_line():
    from grader.course import Check, Day
    from grader.report.text import render_text
    from grader.report.results import CheckResult, DayResult

    check = Check("pure", "A pure check.", (), ("look",))
    day = Day("day-01", "day-01-x", "X", Path("/nowhere/lab"), Path("/nowhere/sol"), Path("/nowhere/c"), 0,
              (), (check,), ())
    result = DayResult("day-01", "X", "/elsewhere/lab", checks=(CheckResult("pure", "A pure check.", "failed",
                       message="no"),), seed=7)
    text = render_text(result, day, keep=True)
    assert "reproduce: grader check day-01 --only pure --seed 7 --lab /elsewhere/lab --keep" in text


CJK_TITLE = "会话日志在最后一行被截断时读取前面完整的七个事件并报告停止的位置 then English words follow"


def _report(width):
    from grader.course import Check, Day
    from grader.report.text import render_text
    from grader.report.results import CheckResult, DayResult

    checks = (Check("session-id", "A new session gets an id like s-YYYYMMDD-HHMMSS-xxxx and its log file "
                    "in the sessions dir.", ("E1",), ("h",)), Check("torn-tail", CJK_TITLE, ("E1",), ("h",)))
    day = Day("day-07", "day-07-x", "Session persistence: append-only event log, resume, fork", Path("/l"),
              Path("/s"), Path("/c"), 0, (), checks, ())
    results = (CheckResult("session-id", checks[0].title, "passed"),
               CheckResult("torn-tail", CJK_TITLE, "failed", message="expected reading to stop at line 8 (the "
                           "last line cut in half), but it returned 7 events and reported nothing",
                           expected="stopped_at 8 with a reason", seen="7 events, stopped_at null",
                           hint="Cut a copy of a one-round log by 30 bytes and run the reader on it.",
                           hint_level=1, hint_levels=1))
    return render_text(DayResult("day-07", day.title, "/l", checks=results, seed=1), day, width=width)


def test_the_text_report_wraps_to_the_width_without_breaking_words():
    from grader.report.text import display_width

    assert display_width("会话ab") == 6
    narrow, wide = _report(40), _report(None)
    for line in narrow.splitlines():
        assert display_width(line) <= 40, line
    assert narrow.split() != wide.split()         # wrapped ...
    latin = lambda text: [w for w in text.split() if w.isascii()]  # noqa: E731
    assert latin(narrow) == latin(wide)            # ... but no word was cut
    assert "".join(narrow.split()) == "".join(wide.split())   # and nothing lost or added
    assert max(map(len, wide.splitlines())) > 40   # no width: lines as long as their text


def test_the_cli_wraps_at_columns_and_not_when_piped(cli, course_dir):
    from grader.report.text import display_width

    narrow = cli("check", "1", env={"COLUMNS": "40"}).stdout
    for line in narrow.splitlines():   # longer only if it is one word (a path) or a command to copy whole
        assert display_width(line) <= 40 or len(line.split()) == 1 or line.split()[0] == "more:", line
    piped = cli("check", "1", env={"COLUMNS": None}).stdout
    assert len(piped.splitlines()) < len(narrow.splitlines())
    assert any(len(line) > 40 for line in piped.splitlines())     # not a terminal, no COLUMNS: as before


def test_help_shows_no_raw_placeholders(cli):
    for args in ([], ["check"], ["hint"], ["list"], ["reset"], ["restore"], ["verify"]):
        out = cli(*args, "--help").stdout
        for raw in ("<bool>", "<list", "<str>", "<path>", "<int>", "[[", "{day}", "{DAY}"):
            assert raw not in out, (args, raw, out)
    hint = cli("hint", "--help").stdout
    assert "DAY [CHECK]" in hint and "--next" in hint
    assert "DAY [BACKUP]" in cli("restore", "--help").stdout


def test_live_lines_on_a_terminal_then_the_report(course_dir):
    """On a real pseudo-terminal one progress line is rewritten in place as each check
    finishes, and erased before the report, so each check is printed once (however many
    there are for the terminal's height); piped, the output is the report alone."""
    import pty
    import select

    leader, follower = pty.openpty()
    env = {**child_env(course_dir), "TERM": "xterm", "NO_COLOR": "1"}
    proc = subprocess.Popen(grader_argv("check", "1"), stdin=follower, stdout=follower, stderr=follower,
                            env=env, cwd=course_dir, start_new_session=True)
    os.close(follower)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], 60)
            if not ready:
                break
            try:
                data = os.read(leader, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(leader)
        proc.wait(30)
    screen = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 1
    live, _, report = screen.rpartition("\r\x1b[K")          # the report follows the last erase
    assert "day-01: running 4 checks" in live and " ✓  1 runs" in live and " ✗  2 greets" in live
    notes, _, live = live.rpartition("day-01: running")         # a note (no bwrap here) comes before the row
    assert "\n" not in live.strip("\r\n"), live                # one row, rewritten: nothing left above
    assert all(line.startswith("note: ") for line in notes.splitlines() if line.strip()), notes
    assert "1/3 passed" in report and "hint: look closer" in report
    assert report.count(" ✓  1 runs") == 1 and report.count(" ✗  2 greets") == 1, report
    piped = subprocess.run(grader_argv("check", "1"), capture_output=True, text=True, env=env, timeout=60,
                           cwd=course_dir)
    assert "running" not in piped.stdout and "\x1b[" not in piped.stdout


SLOW_RUNS = '''

def test_runs(ctx):
    """The runs check."""
    import sys
    code = "import os, pathlib, time; pathlib.Path(%r).write_text(str(os.getpid())); time.sleep(60)" % MARK
    ctx.run_process([sys.executable, "-c", code], cwd=ctx.tmp("runs"), timeout=120)
'''


def test_ctrl_c_during_a_check_says_nothing_was_changed(course_dir, tmp_path):
    mark = tmp_path / "sleeper.pid"
    module = course_dir / "checks/day01/checks.py"
    text = module.read_text()
    start = text.index("def test_runs(ctx):")
    end = text.index("def test_greets(ctx):")
    module.write_text(text[:start] + f"MARK = {str(mark)!r}\n" + SLOW_RUNS.strip() + "\n\n\n" + text[end:])
    # SIGINT as a terminal leaves it: a test run started in the background inherits it ignored
    proc = subprocess.Popen(grader_argv("check", "1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=child_env(course_dir), cwd=course_dir,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (mark.exists() and mark.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists(), "the slow check never started"
    sleeper = int(mark.read_text())
    proc.send_signal(signal.SIGINT)     # what the terminal's Ctrl-C gives the grader (its children have their own group)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the grader did not stop on SIGINT: {out}\n{err}")
    assert proc.returncode == 130, err
    assert "interrupted: nothing was changed" in err and "Traceback" not in err and out == ""
    assert state(course_dir) is None
    for _ in range(100):
        try:
            os.kill(sleeper, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(sleeper, signal.SIGKILL)
        pytest.fail("the check's child outlived the interrupted grader")


def test_json_output_is_unchanged_by_the_new_features(cli, course_dir):
    data = json.loads(cli("check", "1", "--json", env={"COLUMNS": "40"}).stdout)
    assert data["schema"] == "agent-lab/check-result" and data["version"] == 1
    assert (data["passed"], data["total"]) == (1, 3)


# --------------------------------------------------------------------------- day names, and no day at all

def test_a_day_is_named_by_its_number_in_every_spelling(course):
    for text in ("1", "01", "day-01", "day-1", "day-001", "Day-1", "day1", "day-01-hello"):
        assert course.find_day(text).id == "day-01", text


def test_check_without_a_day_takes_it_from_the_lab_directory(cli, course_dir, monkeypatch):
    monkeypatch.chdir(course_dir / LAB / "toy")
    result = cli("check", "--only", "runs")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("day-01: ") and "1/1 passed" in result.stdout


def test_check_without_a_day_elsewhere_says_how_to_name_one(cli, course_dir):
    result = cli("check")
    assert result.exit_code == 2
    assert "name a day: grader check day-01 (grader list shows them)" in result.stderr
    assert "Missing argument" not in result.output


# --------------------------------------------------------------------------- verify on a terminal

def test_the_verify_table_wraps_its_detail_column_at_spaces():
    from grader.i18n import display_width
    from grader.verify import VerifyReport, VerifyRow, render_table

    detail = ("reverting E3 also failed reply-parsed, http-error-one-line: course.toml maps E3 to "
              "request-shape, reply-parsed, http-error-one-line, server-unreachable")
    report = VerifyReport([VerifyRow("day-01", "revert E3", False, detail), VerifyRow("day-01", "solution", True, "10/10")])
    for width in (120, 60, 40):
        lines = render_table(report, width=width).splitlines()
        assert all(display_width(line) <= width for line in lines), (width, lines)
        words = " ".join(line.strip() for line in lines[1:-2]).split()
        assert " ".join(words).endswith(detail) or detail in " ".join(words), (width, lines)   # no word split
    assert render_table(report).splitlines()[1].endswith(detail)          # piped: as long as it is


def test_verify_reports_progress_per_grading_run(course):
    from grader.report.results import DayResult
    from grader.verify import verify

    seen = []
    verify(course, ["1"], run_day=lambda c, d, lab: DayResult(d.id, d.title, str(lab)), workers=1,
           progress=lambda *args: seen.append(args))
    runs = 2 + len(course.find_day("1").exercises)      # solution, lab, one revert per point
    assert [graded for _day, graded, *_ in seen] == list(range(1, runs + 1))
    assert seen[-1] == ("day-01", runs, runs, 1, 1)


def test_verify_of_an_edited_lab_points_at_the_drift_not_at_the_scaffold(course, course_dir):
    from grader.verify import verify

    edit(course_dir)                                   # the lab's greet now works: E1 "solved"
    report = verify(course, ["1"], workers=1)
    rows = {row.item: row for row in report.rows}
    drift = next(row for row in report.rows if not row.ok and "toy/greet.py" in row.detail)
    lab = next(row for item, row in rows.items() if item.startswith("lab scores"))
    assert report.rows.index(drift) < report.rows.index(lab)
    assert not lab.ok and lab.detail.endswith("(the lab differs from the generated one, see above)"), lab.detail
    assert "scaffold does not break" not in lab.detail


# --------------------------------------------------------------------------- the student edition's README

def test_the_student_readme_names_watch_and_keeps_its_comments_in_one_column(course):
    from grader.i18n import display_width
    from grader.release import student_readmes

    for name, text in student_readmes(course, list(course.days)).items():
        block = text[text.index("grader list"):]
        block = block[:block.index("```")]
        lines = [line for line in block.splitlines() if "  #" in line]
        assert any(line.startswith(f"grader watch {course.days[-1].id} ") for line in lines), (name, block)
        columns = {display_width(line[:line.index("  #")].rstrip()) + (len(line[:line.index("#")]) -
                   len(line[:line.index("  #")].rstrip())) for line in lines}
        assert len(columns) == 1, (name, block)


def test_one_more_hint_for_a_point_moves_only_its_first_failing_check():
    from grader.course import load_course
    from grader.lab.hints import resolve

    real = load_course(REPO / "course.toml").find_day("day-01")

    class Last:
        def __init__(self, failed):
            self.failed = failed

        def last(self, day_id):
            return {"failed": self.failed} if self.failed is not None else None

    failing = ["reply-parsed", "http-error-one-line", "server-unreachable", "repl-edges"]
    assert [c.id for c in resolve(Last(failing), real, "E4")] == ["reply-parsed"]
    assert [c.id for c in resolve(Last(failing[1:]), real, "e4")] == ["http-error-one-line"]
    assert [c.id for c in resolve(Last(None), real, "E4")] == ["reply-parsed"]
