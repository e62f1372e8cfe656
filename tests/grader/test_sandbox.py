"""`--sandbox` (grader/spawn/sandbox.py, grader/spawn/sandbox_init.py): each grading in a fresh PID namespace.

What is proven here:

* the way in is found, or the reason it cannot be is one line that names the fix (a fake
  `unshare` on PATH plays each machine that says no);
* the namespace's init passes the command's exit status on (128+N for signal N), passes
  SIGTERM on, leaves SIGINT to the command, and starts it with the signal dispositions it
  would have had;
* a daemon that leaves its session, scrubs its environment and lets go of its pipes dies
  with the sandbox (and, without it, is known to escape), even when unshare is SIGKILLed;
* `grader check --sandbox` gives the same exit codes, stdout, --json and --junit as without
  it, and Ctrl-C (exit 130, "nothing was changed") and SIGTERM stop it with everything it
  started; unavailable, it exits 2 saying why;
* the real day-04 and day-07 solutions score the same with and without (day 7 signals its
  agent, drives a pty and resumes across processes), with a fixed seed;
* `grader grade --sandbox`: the expected rows for a solution and a lab that kills its
  grading process after starting a scrubbed daemon, nothing left behind (without the
  sandbox that daemon escapes the batch); the wall-limit kill still stops everything.

The tests that make namespaces are skipped, with the probe's reason, where none can be made.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.cli import app
from grader.spawn import sandbox
from tests.hostile import hostile

REPO = Path(__file__).resolve().parents[2]
WAY = sandbox.find()
needs_sandbox = pytest.mark.skipif(not WAY.available, reason=f"no PID namespace here: {WAY.reason}")
linux_only = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux /proc")

# A daemon as grandchild-scrubbed starts it: a new session, an empty environment, cwd /, no
# inherited pipe. Its command line carries the marker (argv[1]), so /proc finds it.
DAEMON = ("import subprocess, sys\n"
          "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', sys.argv[1]], env={}, cwd='/',"
          " stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,"
          " start_new_session=True)\n")


@pytest.fixture
def marker():
    name = f"sandbox-test-{uuid.uuid4().hex[:12]}"
    yield name
    hostile.kill_all(name)  # hygiene: whatever escaped goes with the test


@pytest.fixture
def fresh_probe(monkeypatch):
    """The probe runs again in this test (and the remembered answer is back afterwards)."""
    monkeypatch.setattr(sandbox, "_found", None)


def fake_unshare(directory: Path, script: str) -> Path:
    """A stand-in `unshare` on PATH: a shell script given its arguments as "$*"."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "unshare"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return directory


# --------------------------------------------------------------------------- finding a way in

def test_without_unshare_on_path_the_reason_says_so(tmp_path, monkeypatch, fresh_probe):
    monkeypatch.setenv("PATH", str(tmp_path))
    way = sandbox.find()
    assert not way.available and "no unshare command on PATH" in way.reason and "util-linux" in way.reason


def test_not_linux_is_a_reason(monkeypatch, fresh_probe):
    monkeypatch.setattr(sandbox.sys, "platform", "darwin")
    way = sandbox.find()
    assert not way.available and "darwin" in way.reason


def test_an_unshare_too_old_for_kill_child_is_named_with_its_version(tmp_path, monkeypatch, fresh_probe):
    bin_dir = fake_unshare(tmp_path / "bin", 'case "$*" in --version) echo "unshare from util-linux 2.31.1";;\n'
                           '*) echo "unshare: unrecognized option \'--kill-child\'" >&2; exit 1;; esac\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    way = sandbox.find()
    assert not way.available
    assert "util-linux 2.31.1 has no --kill-child" in way.reason and "2.32" in way.reason


def test_user_namespaces_off_names_the_sysctl_that_turns_them_on(tmp_path, monkeypatch, fresh_probe):
    bin_dir = fake_unshare(tmp_path / "bin", 'echo "unshare: unshare failed: Operation not permitted" >&2; exit 1\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 1000)
    settings = {"/proc/sys/kernel/unprivileged_userns_clone": "0"}
    monkeypatch.setattr(sandbox, "_read", lambda path: settings.get(path, ""))
    way = sandbox.find()
    assert not way.available
    assert "kernel.unprivileged_userns_clone=0" in way.reason
    assert "sysctl -w kernel.unprivileged_userns_clone=1" in way.reason
    settings.clear()
    settings["/proc/sys/user/max_user_namespaces"] = "0"
    assert "user.max_user_namespaces=0" in sandbox.find(again=True).reason


def test_a_container_that_forbids_unshare_gets_unshares_own_words_and_the_fix(tmp_path, monkeypatch, fresh_probe):
    bin_dir = fake_unshare(tmp_path / "bin", 'echo "unshare: unshare failed: Operation not permitted" >&2; exit 1\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    way = sandbox.find()
    assert not way.available
    assert "unshare failed: Operation not permitted" in way.reason and "--privileged" in way.reason


def test_as_another_user_map_root_user_is_the_way_where_map_current_user_is_missing(tmp_path, monkeypatch,
                                                                                    fresh_probe):
    bin_dir = fake_unshare(tmp_path / "bin", 'case "$*" in *--map-current-user*) '
                           'echo "unshare: unrecognized option \'--map-current-user\'" >&2; exit 1;; esac\nexit 0\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 1000)
    way = sandbox.find()
    assert way.available and way.prefix[1:] == ("--user", "--map-root-user", *sandbox.NAMESPACE)


def test_the_probe_runs_once_per_process(tmp_path, monkeypatch, fresh_probe):
    count = tmp_path / "count"
    bin_dir = fake_unshare(tmp_path / "bin", f'echo x >> "{count}"\nexit 0\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    assert sandbox.find().available and sandbox.find().available and sandbox.wrap(["true"])
    assert count.read_text() == "x\n"


@needs_sandbox
def test_here_as_root_the_plain_way_is_found():
    if os.geteuid() != 0:
        pytest.skip("the plain way is for root")
    assert WAY.prefix[1:] == sandbox.NAMESPACE and WAY.reason == ""


AS_NOBODY = """
import subprocess, sys
sys.path.insert(0, sys.argv[1])
from grader.spawn import sandbox
way = sandbox.find()
print(" ".join(way.prefix[1:]) if way.available else "unavailable: " + way.reason)
if way.available:
    code = "import os; print(os.getpid(), os.getuid(), len([p for p in os.listdir('/proc') if p.isdigit()]))"
    print(subprocess.run(sandbox.wrap([sys.executable, "-c", code]), capture_output=True, text=True).stdout.strip())
"""


def _python_for(user: int) -> str | None:
    """A Python 3.11+ that `user` may run, with the kit's grader importable (readable) by it."""
    for exe in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"):
        try:
            done = subprocess.run([exe, "-S", "-c", "import sys; assert sys.version_info >= (3, 11); "
                                   f"sys.path.insert(0, {str(REPO)!r}); import grader.spawn.sandbox"],
                                  capture_output=True, user=user, env={"HOME": "/tmp"}, cwd="/", timeout=60)
        except OSError:
            continue
        if done.returncode == 0:
            return exe
    return None


@needs_sandbox
def test_as_another_user_the_way_in_is_a_user_namespace_of_its_own():
    """Not a stand-in this time: the probe and a command in the namespace, run as uid 65534
    (possible only when the suite runs as root), where user namespaces are on."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run a child as uid 65534")
    python = _python_for(65534)
    if python is None:
        pytest.skip("no Python 3.11+ that uid 65534 may run with the kit readable")
    done = subprocess.run([python, "-S", "-c", AS_NOBODY, str(REPO)], capture_output=True, text=True, user=65534,
                          group=65534, extra_groups=[], env={"HOME": "/tmp", "PATH": os.environ["PATH"]}, cwd="/",
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    if lines[0].startswith("unavailable: "):
        pytest.skip(f"uid 65534 gets no user namespace here: {lines[0]}")
    assert lines[0] == " ".join(("--user", "--map-current-user", *sandbox.NAMESPACE))
    assert lines[1] == "2 65534 2", "PID 2 under init, the same uid, a /proc of the namespace's own"


# --------------------------------------------------------------------------- the namespace's init

def run_wrapped(code: str, *args: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run(sandbox.wrap([sys.executable, "-c", code, *args]), capture_output=True, text=True,
                          timeout=60, **options)


@needs_sandbox
def test_the_command_runs_under_init_and_sees_the_namespaces_own_proc():
    done = run_wrapped("import os; print(os.getpid(), os.getppid(), len([p for p in os.listdir('/proc') "
                       "if p.isdigit()]))")
    pid, parent, processes = map(int, done.stdout.split())
    assert (pid, parent) == (2, 1), "the command must not be PID 1: init is"
    assert processes == 2, "a fresh /proc shows only init and the command"


@needs_sandbox
@pytest.mark.parametrize("code, status", [("import sys; sys.exit(7)", 7), ("pass", 0),
                                          ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", 143),
                                          ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", 137)])
def test_init_exits_with_the_commands_status_128_plus_n_for_a_signal(code, status):
    assert run_wrapped(code).returncode == status
    assert sandbox.status(status) == (-(status - 128) if status > 128 else status)


@needs_sandbox
def test_a_command_that_cannot_start_is_127_with_a_message():
    done = subprocess.run(sandbox.wrap(["/nonexistent/grader"]), capture_output=True, text=True, timeout=60)
    assert done.returncode == 127 and "cannot run /nonexistent/grader" in done.stderr


@needs_sandbox
def test_the_command_starts_with_the_signal_dispositions_it_would_have_had():
    """Not Python (which ignores SIGPIPE and SIGXFSZ itself at start-up): grep shows the
    signals it was started with ignored, the same with the sandbox as without: from a
    terminal, and as a background job under nohup (SIGINT and SIGHUP ignored)."""
    command = ["grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"]
    for start in (signal.SIG_DFL, signal.SIG_IGN):  # from a terminal; a background job under nohup
        def preexec(start=start):   # SIGINT and SIGHUP both so, whatever the suite itself was given
            signal.signal(signal.SIGINT, start)
            signal.signal(signal.SIGHUP, start)
            for other in (signal.SIGQUIT, signal.SIGTERM, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
                signal.signal(other, signal.SIG_DFL)  # a suite started in the background inherits SIGQUIT ignored
        options = dict(capture_output=True, text=True, timeout=60, preexec_fn=preexec)
        plain = subprocess.run(command, **options)
        boxed = subprocess.run(sandbox.wrap(command), **options)
        assert boxed.returncode == 0 and boxed.stdout == plain.stdout, (start, boxed.stdout, plain.stdout)
    ignored = int(boxed.stdout.split("SigIgn:")[1].split()[0], 16)
    assert ignored == (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGHUP - 1)), \
        "the ignored SIGINT and SIGHUP of a background job under nohup stay ignored, and only those"


@needs_sandbox
def test_sigterm_to_init_reaches_the_command_and_sigint_to_init_does_not(tmp_path):
    ready = tmp_path / "ready"
    code = ("import pathlib, signal, sys, time\n"
            "signal.signal(signal.SIGINT, lambda n, f: print('SIGINT', flush=True))\n"
            "signal.signal(signal.SIGTERM, lambda n, f: sys.exit(5))\n"
            f"pathlib.Path({str(ready)!r}).write_text('x')\n"
            "time.sleep(60)\n")
    proc = subprocess.Popen(sandbox.wrap([sys.executable, "-c", code]), stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        init = sandbox._children(proc.pid)
        assert len(init) == 1
        os.kill(init[0], signal.SIGINT)   # ignored by init, not passed on: a terminal sends it to the group
        time.sleep(0.3)
        os.kill(init[0], signal.SIGTERM)  # passed on: the command exits 5 from its handler
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 5 and "SIGINT" not in out


@needs_sandbox
@linux_only
def test_a_scrubbed_daemon_dies_with_the_sandbox_and_escapes_without_it(marker):
    plain = subprocess.run([sys.executable, "-c", DAEMON, marker], timeout=60)
    assert plain.returncode == 0
    assert hostile.leftovers(marker, settle=0.5), "without the sandbox the daemon is known to escape"
    hostile.kill_all(marker)
    boxed = subprocess.run(sandbox.wrap([sys.executable, "-c", DAEMON, marker]), timeout=60)
    assert boxed.returncode == 0
    assert hostile.leftovers(marker) == []


@needs_sandbox
@linux_only
def test_sigkill_to_unshare_takes_init_and_the_whole_namespace(marker):
    code = DAEMON + "import time; print('ready', flush=True); time.sleep(600)\n"
    proc = subprocess.Popen(sandbox.wrap([sys.executable, "-c", code, marker]), stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "ready\n"
        assert len(hostile.processes_with(marker)) >= 2  # the command and its daemon
        proc.kill()  # unshare alone, as the batch's wall limit may
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert hostile.leftovers(marker, settle=3) == []


# --------------------------------------------------------------------------- grader check --sandbox

def child_env(course_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COLUMNS", "GRADER_"))}
    env.update(PYTHONPATH=str(REPO), GRADER_COURSE=str(course_dir / "course.toml"), NO_COLOR="1")
    return env


def grader(*args, cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], cwd=cwd, env=env, text=True,
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=timeout)


def junit_cases(path: Path) -> dict[str, str]:
    cases = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        cases[case.get("name")] = kinds[0] if kinds else "passed"
    return cases


def comparable(report_text: str) -> dict:
    """A --json report without what differs from run to run: durations, the run root's random name."""
    report = json.loads(re.sub(r"/tmp[a-z0-9_]{8}/work/", "/RUN/work/", report_text))
    for check in report["checks"]:
        check.pop("duration", None)
    return report


@needs_sandbox
@pytest.mark.parametrize("lab, code", [("labs/day-01-hello", 1), ("solutions/day-01-hello", 0)])
def test_check_with_the_sandbox_prints_and_writes_what_it_does_without(course_dir, tmp_path, lab, code):
    env = child_env(course_dir)
    runs = {}
    for name, extra in (("plain", ()), ("sandbox", ("--sandbox",))):
        text = grader("check", "1", "--lab", course_dir / lab, "--seed", 5, *extra, cwd=tmp_path, env=env)
        out = tmp_path / name
        out.mkdir()
        as_json = grader("check", "1", "--lab", course_dir / lab, "--seed", 5, "--json", "--junit", out / "j.xml",
                         *extra, cwd=tmp_path, env=env)
        runs[name] = (text, as_json, junit_cases(out / "j.xml"))
    (text, as_json, junit), (boxed_text, boxed_json, boxed_junit) = runs["plain"], runs["sandbox"]
    assert (text.returncode, as_json.returncode) == (code, code), text.stderr
    assert (boxed_text.returncode, boxed_text.stdout, boxed_text.stderr) == (code, text.stdout, text.stderr)
    assert boxed_json.returncode == code
    assert comparable(boxed_json.stdout) == comparable(as_json.stdout)
    assert boxed_junit == junit and set(junit.values()) == ({"passed"} if code == 0 else {"passed", "failure"})


@needs_sandbox
def test_check_with_the_sandbox_keeps_the_usage_and_ci_exit_codes(course_dir, tmp_path):
    env = child_env(course_dir)
    for args in (("check", "9"), ("check", "1", "--lab", tmp_path / "nowhere"), ("check", "1", "--jobs", "0")):
        plain, boxed = grader(*args, cwd=tmp_path, env=env), grader(*args, "--sandbox", cwd=tmp_path, env=env)
        assert plain.returncode == 2 and (boxed.returncode, boxed.stdout, boxed.stderr) == (2, plain.stdout,
                                                                                            plain.stderr)
    # --ci where the course's files are not the shipped ones: exit 3, as without
    plain = grader("check", "1", "--ci", cwd=tmp_path, env=env)
    boxed = grader("check", "1", "--ci", "--sandbox", cwd=tmp_path, env=env)
    assert plain.returncode == 3 and (boxed.returncode, boxed.stderr) == (3, plain.stderr)


SLOW_RUNS = '''

def test_runs(ctx):
    """The runs check."""
    import sys
    code = "import pathlib, time; pathlib.Path(%r).write_text('started'); time.sleep(60)" % MARK
    ctx.run_process([sys.executable, "-c", code], cwd=ctx.tmp("runs"), timeout=120)
'''


def slow_course(course_dir: Path, mark: Path) -> None:
    """day-01's first check starts a child that sleeps 60 s (its command line names `mark`)."""
    module = course_dir / "checks/day01/checks.py"
    text = module.read_text()
    start, end = text.index("def test_runs(ctx):"), text.index("def test_greets(ctx):")
    module.write_text(text[:start] + f"MARK = {str(mark)!r}\n" + SLOW_RUNS.strip() + "\n\n\n" + text[end:])


def start_slow_check(course_dir: Path, mark: Path, *extra: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "grader", "check", "1", *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=child_env(course_dir), cwd=course_dir,
                            start_new_session=True,  # a process group of its own, as a terminal's job
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not mark.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert mark.exists(), "the slow check never started: " + (proc.communicate()[1] if proc.poll() is not None
                                                                 else "")
    return proc


def finish(proc: subprocess.Popen) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the grader did not stop: {out}\n{err}")


@needs_sandbox
@linux_only
def test_ctrl_c_stops_a_sandboxed_check_says_nothing_was_changed_and_leaves_nothing(course_dir, tmp_path):
    mark = tmp_path / f"ctrl-c-{uuid.uuid4().hex[:8]}"
    slow_course(course_dir, mark)
    proc = start_slow_check(course_dir, mark, "--sandbox")
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    out, err = finish(proc)
    assert proc.returncode == 130, err
    assert "interrupted: nothing was changed" in err and "Traceback" not in err and out == ""
    assert err.count("interrupted") == 1
    assert not (course_dir / ".grader/state.json").exists()
    assert hostile.leftovers(str(mark), settle=3) == []


@needs_sandbox
@linux_only
def test_sigterm_ends_a_sandboxed_check_as_it_ends_a_plain_one_and_takes_its_children(course_dir, tmp_path):
    mark = tmp_path / f"sigterm-{uuid.uuid4().hex[:8]}"
    slow_course(course_dir, mark)
    proc = start_slow_check(course_dir, mark, "--sandbox")
    proc.send_signal(signal.SIGTERM)  # to the grader the user started, as `kill PID` or timeout(1) does
    finish(proc)
    assert proc.returncode == -signal.SIGTERM  # killed by SIGTERM, as the grader without the sandbox is
    assert hostile.leftovers(str(mark), settle=3) == []  # ... which leaves the sleeper running for 60 s


def test_check_where_the_sandbox_is_unavailable_exits_2_saying_why_and_the_fix(course_dir, monkeypatch):
    monkeypatch.setattr(sandbox, "_found", sandbox.Way(None, "no_unshare"))
    monkeypatch.delenv(sandbox.MARKER_VAR, raising=False)
    for lang, said, fix in (("en", "--sandbox is not available here: there is no unshare command on PATH",
                             "Grade without --sandbox, or in a throwaway container"),
                            ("zh", "这里用不了 --sandbox：PATH 里没有 unshare 命令", "请去掉 --sandbox 评分")):
        done = CliRunner().invoke(app, ["--lang", lang, "check", "1", "--sandbox"])
        assert done.exit_code == 2 and said in done.stderr and fix in done.stderr, done.stderr
        assert done.stdout == ""
    assert not (course_dir / ".grader").exists()


def test_the_sandboxed_command_line_gives_the_command_every_value_it_had(course_dir, monkeypatch, tmp_path):
    seen = {}

    def fake_run(argv, env):
        seen["argv"], seen["env"] = argv, env
        return 0
    monkeypatch.setattr(sandbox, "run", fake_run)
    monkeypatch.delenv(sandbox.MARKER_VAR, raising=False)
    args = ["--course", str(course_dir), "--lang", "zh", "check", "1", "--lab", str(tmp_path), "--json", "--junit",
            "j.xml", "--gradescope", "g.json", "--keep", "--only", "runs", "--only", "greets", "--seed", "5", "--ci",
            "--jobs", "2", "--sandbox"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.stderr
    assert seen["argv"] == [sys.executable, "-m", "grader", *args]
    assert seen["env"]["PYTHONPATH"].split(os.pathsep)[0] == str(REPO)


def test_inside_the_sandbox_check_runs_as_a_plain_check(course_dir, monkeypatch):
    monkeypatch.setattr(sandbox, "run", lambda argv, env: pytest.fail("went into a second sandbox"))
    monkeypatch.setenv(sandbox.MARKER_VAR, "1")
    done = CliRunner().invoke(app, ["check", "1", "--sandbox", "--lab", str(course_dir / "solutions/day-01-hello")])
    assert done.exit_code == 0, done.stdout + done.stderr


def test_help_names_the_sandbox_in_both_languages():
    for lang, text in (("en", "fresh PID namespace"), ("zh", "PID 命名空间")):
        for command in ("check", "grade"):
            done = subprocess.run([sys.executable, "-m", "grader", "--lang", lang, command, "--help"], cwd=REPO,
                                  env=dict(os.environ, COLUMNS="200"), capture_output=True, text=True, timeout=60)
            assert "--sandbox" in done.stdout and text in done.stdout, (lang, command, done.stdout)


# --------------------------------------------------------------------------- the real days, side by side

def statuses(report: dict) -> dict[str, str]:
    return {c["id"]: c["status"] for c in report["checks"]}


def not_passed(run) -> str:
    """What a failing grading says first: its stderr, the cause, and each check that did not pass."""
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return f"exit {run.returncode}; stderr: {run.stderr[-1500:]}; stdout: {run.stdout[-1500:]}"
    failing = [f"{c['id']}: {c['status']}: {c['message']} | seen: {c.get('seen')}" for c in report["checks"]
               if c["status"] != "passed"]
    return f"exit {run.returncode}; cause: {report.get('cause')}; stderr: {run.stderr[-800:]}\n" + "\n".join(failing)


@needs_sandbox
@pytest.mark.parametrize("day, slug", [("day-04", "day-04-write-tools-shell"), ("day-07", "day-07-session-resume")])
def test_a_solution_scores_the_same_in_the_sandbox(tmp_path, day, slug):
    """Day 7 signals its agent directly, drives it on a pty and presses Ctrl-C, resumes a
    session in a second process; day 4 kills process groups on time limits. Same seed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GRADER_"))}
    env.update(PYTHONPATH=str(REPO), GRADER_COURSE=str(REPO / "course.toml"))
    lab = REPO / "solutions" / slug
    plain = grader("check", day, "--lab", lab, "--seed", 20261201, "--json", cwd=tmp_path, env=env)
    boxed = grader("check", day, "--lab", lab, "--seed", 20261201, "--json", "--sandbox", cwd=tmp_path, env=env)
    assert plain.returncode == 0, not_passed(plain)
    assert boxed.returncode == 0, not_passed(boxed)
    assert statuses(json.loads(boxed.stdout)) == statuses(json.loads(plain.stdout))
    assert set(statuses(json.loads(boxed.stdout)).values()) == {"passed"}


# --------------------------------------------------------------------------- grader grade --sandbox

# A lab whose package, on import, starts a scrubbed daemon and then SIGKILLs its parent: the
# grading process. The daemon is then no descendant of anything the batch knows.
ESCAPER = ("import os, signal, subprocess, sys\n"
           "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}], env={{}}, cwd='/',"
           " stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,"
           " start_new_session=True)\n"
           "os.kill(os.getppid(), signal.SIGKILL)\n")
HANG = "import time\nwhile True:\n    time.sleep(1)\n"


def grade_class(tmp_path: Path, room: Path, name: str, *extra) -> tuple[object, dict]:
    from tests.classroom.conftest import KIT, invoke, jsonl_rows
    scratch = tmp_path / f"tmp-{name}"
    scratch.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(scratch))
        patch.delenv("GRADER_TIMEOUT_SCALE", raising=False)
        patch.delenv(sandbox.MARKER_VAR, raising=False)
        # lab children without views of their own: in one, the daemon would die with its child
        # (tests/hostile/test_hermetic_runs.py), and this is about what --sandbox adds
        patch.setenv("GRADER_HERMETIC", "0")
        done = invoke("--course", KIT, "--lang", "en", "grade", "day-01", room, "-o", tmp_path / name,
                      "--seed", 7, "--jobs", 2, *extra)
    assert done.exit_code == 0, done.stdout + done.stderr
    return done, jsonl_rows(tmp_path / name)


def row_summary(row: dict) -> tuple:
    from tests.classroom.conftest import statuses as row_statuses
    return row["outcome"], row["note"], row_statuses(row)


@needs_sandbox
@linux_only
def test_grade_with_the_sandbox_gives_the_rows_and_a_daemon_that_escapes_the_batch_dies(tmp_path, marker):
    from tests.checks import corpus
    day = corpus.COURSE.find_day("day-01")
    room = tmp_path / "class"
    room.mkdir()
    corpus.build_lab(day, room / "solution")
    escaper = corpus.build_lab(day, room / "escapes")
    with open(escaper / "mca/__init__.py", "a", encoding="utf-8") as handle:
        handle.write("\n" + ESCAPER.format(marker=marker))

    _, plain = grade_class(tmp_path, room, "plain")
    assert hostile.leftovers(marker, settle=1), "without the sandbox the daemon is known to outlive the batch"
    hostile.kill_all(marker)
    _, boxed = grade_class(tmp_path, room, "boxed", "--sandbox")
    assert hostile.leftovers(marker) == []

    assert boxed["solution"]["outcome"] == "graded"
    assert set(row_summary(boxed["solution"])[2].values()) == {"passed"}
    assert (boxed["escapes"]["outcome"], boxed["escapes"]["note"]) == (
        "crashed", "crashed: the grading process was killed by SIGKILL")
    assert {name: row_summary(row) for name, row in boxed.items()} == \
        {name: row_summary(row) for name, row in plain.items()}
    meta = json.loads((tmp_path / "boxed" / "batch.json").read_text())
    assert meta["sandbox"] is True and json.loads((tmp_path / "plain" / "batch.json").read_text())["sandbox"] is False


@needs_sandbox
@linux_only
def test_the_wall_limit_still_stops_a_sandboxed_grading_with_its_namespace(tmp_path):
    from tests.checks import corpus
    from tests.classroom.conftest import leftovers
    day = corpus.COURSE.find_day("day-01")
    room = tmp_path / "class"
    room.mkdir()
    hangs = corpus.build_lab(day, room / "hangs")
    with open(hangs / "mca/__init__.py", "a", encoding="utf-8") as handle:
        handle.write("\n" + HANG)
    _, rows = grade_class(tmp_path, room, "out", "--sandbox", "--timeout", 3)
    assert rows["hangs"]["outcome"] == "timed-out" and "more than 3 s" in rows["hangs"]["note"]
    # unshare, init and the worker name the lab in their command lines; the probe runs in a copy under tmp_path
    assert not leftovers(str(tmp_path)), leftovers(str(tmp_path))


def test_grade_where_the_sandbox_is_unavailable_exits_2_before_grading(tmp_path, monkeypatch):
    from tests.classroom.conftest import KIT, invoke
    from tests.checks import corpus
    monkeypatch.setattr(sandbox, "_found", sandbox.Way(None, "userns_off", {
        "setting": "kernel.unprivileged_userns_clone=0", "fix": "sysctl -w kernel.unprivileged_userns_clone=1"}))
    room = tmp_path / "class"
    room.mkdir()
    corpus.build_lab(corpus.COURSE.find_day("day-01"), room / "solution")
    done = invoke("--course", KIT, "--lang", "en", "grade", "day-01", room, "-o", tmp_path / "out", "--sandbox")
    assert done.exit_code == 2
    assert "--sandbox is not available here: user namespaces are switched off" in done.stderr
    assert "sysctl -w kernel.unprivileged_userns_clone=1" in done.stderr
    assert not (tmp_path / "out").exists()
