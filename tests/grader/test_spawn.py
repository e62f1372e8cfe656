"""spawn: timeouts kill the group, crashes keep their stderr tail, floods are capped.

Faked children (pytest-subprocess) prove the bookkeeping; a few real children prove
that nothing outlives a check and that a real 20 MB flood neither hangs nor is kept.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from freezegun import freeze_time

from grader import spawn
from grader.course import Agent
from grader.spawn import child as child_module
from grader.spawn import groups


def runner(tmp_path, record=None, **options) -> spawn.LabRunner:
    return spawn.LabRunner(lab=tmp_path / "lab", agent=Agent(), shown_lab=tmp_path / "student lab",
                           on_finish=record.append if record is not None else None, **options)


# -- faked children --------------------------------------------------------------
# A fake process has a made-up pid (1, 2, 3...) that belongs to some real process:
# spawn must never signal it. Every fake test runs with killpg replaced by a recorder.

@pytest.fixture
def fp(fp, monkeypatch):
    sent = []
    monkeypatch.setattr(groups.os, "killpg", lambda pgid, sig: sent.append((pgid, sig)))
    monkeypatch.setattr(child_module.os, "killpg", lambda pgid, sig: sent.append((pgid, sig)))
    yield fp
    assert sent == [], f"spawn signalled a fake process's made-up group: {sent}"


def test_fake_timeout_raises_child_timeout_with_the_result(fp, tmp_path):
    def hang(process):
        raise subprocess.TimeoutExpired(process.args, 1)

    record = []
    lab = runner(tmp_path, record)
    fp.register(lab.agent_argv("hi"), callback=hang)
    with pytest.raises(spawn.ChildTimeout) as caught:
        lab.run_agent("hi", cwd=tmp_path, timeout=1)
    result = caught.value.result
    assert result.timed_out and result.returncode is None
    assert "python -m mca hi" in str(caught.value) and "within 1 s" in str(caught.value)
    assert record == [result]


def test_fake_crash_keeps_the_stderr_tail(fp, tmp_path):
    traceback = "Traceback (most recent call last):\n" + "  frame\n" * 50 + "ValueError: boom\n"
    lab = runner(tmp_path)
    fp.register(lab.agent_argv(), stderr=traceback, returncode=1)
    result = lab.run_agent(cwd=tmp_path)
    assert result.returncode == 1 and not result.timed_out
    assert result.stderr_tail(1) == "ValueError: boom"
    assert result.stderr_tail(2).splitlines()[0] == "  frame"


def test_fake_flood_is_capped_and_says_so(fp, tmp_path):
    fp.register(["flood"], stdout=b"a" * 3_000_000 + b"THE END")
    result = spawn.run(["flood"], cwd=tmp_path, output_cap=100_000)
    assert result.stdout_truncated and not result.stderr_truncated
    assert len(result.stdout) < 101_000
    assert result.stdout.startswith("a" * 1000) and result.stdout.endswith("THE END")
    assert "bytes of output not kept" in result.stdout


def test_lab_env_drops_the_agent_grader_and_kit_variables(monkeypatch, tmp_path):
    kit = tmp_path / "kit"
    for name, value in {"MCA_API_KEY": "sk-secret", "GRADER_COURSE": str(kit / "course.toml"),
                        "VIRTUAL_ENV": str(kit / ".venv"), "PWD": str(kit), "PYTHONPATH": "/x",
                        "KEEP_ME": "yes", "SOME_TOOL_HOME": str(kit / "tools"),
                        "PATH": os.pathsep.join([str(kit / ".venv" / "bin"), "/usr/bin"])}.items():
        monkeypatch.setenv(name, value)
    env = runner(tmp_path, kit_paths=(kit,)).env({"EXTRA": "1"})
    assert not any(key.startswith(("MCA_", "GRADER_")) for key in env)
    for gone in ("VIRTUAL_ENV", "PWD", "PYTHONPATH", "SOME_TOOL_HOME"):
        assert gone not in env
    assert env["PATH"] == "/usr/bin" and env["KEEP_ME"] == "yes" and env["EXTRA"] == "1"
    assert (env["MOCK"], env["PYTHONDONTWRITEBYTECODE"]) == ("1", "1")
    assert "NO_COLOR" not in env  # a variable few shells have: it would tell a graded run
    assert "MOCK" not in runner(tmp_path).env(mock=False)
    monkeypatch.setenv("MOCK", "1")  # exported in the grader's shell: a real-gateway child must not inherit it
    assert "MOCK" not in runner(tmp_path).env(mock=False) and runner(tmp_path).env()["MOCK"] == "1"


def test_lab_env_carries_none_of_the_graders_interpreter_settings(monkeypatch, tmp_path):
    """The grader's PYTHON* variables (a bytecode prefix under a test's scratch dir, say) are
    its own: -I ignores them in the child, and left in they would tell a graded run apart."""
    scratch = tmp_path / "pytest-of-someone" / "kit-pycache"
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(scratch))
    monkeypatch.setenv("PYTHONWARNINGS", "error")
    env = runner(tmp_path).env()
    assert "PYTHONPYCACHEPREFIX" not in env and "PYTHONWARNINGS" not in env
    assert not any(str(scratch) in value for value in env.values())
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"  # the one the grader sets for the children's own children


def test_lab_children_run_the_base_interpreter_isolated(tmp_path):
    argv = runner(tmp_path).agent_argv("hi")
    assert argv[0] == spawn.base_python() and argv[1:3] == ["-I", "-S"]
    assert argv[-3:] == [str(tmp_path / "lab"), "mca", "hi"]
    assert "-B" in argv   # no bytecode anywhere unless a shared cache dir is given
    shared = runner(tmp_path, pycache=tmp_path / "cache").agent_argv()
    assert f"pycache_prefix={tmp_path / 'cache'}" in shared and "-B" not in shared


def test_children_are_unbuffered_unless_a_check_asks_for_a_students_run(tmp_path):
    lab = runner(tmp_path)
    assert "-u" in lab.agent_argv("hi") and "-u" not in lab.agent_argv("hi", unbuffered=False)
    argv, env, _ = lab._agent(("hi",), tmp_path, {"PYTHONUNBUFFERED": "1"}, True, unbuffered=False)
    assert "-u" not in argv and "PYTHONUNBUFFERED" not in env


def test_reproduce_line_runs_the_students_own_lab(monkeypatch, fp, tmp_path):
    monkeypatch.setenv("MCA_SESSIONS_DIR", "/somewhere")
    lab = runner(tmp_path)
    fp.register(lab.agent_argv("it's"), stdout="ok")
    work = tmp_path / "with space"
    work.mkdir()
    line = lab.run_agent("it's", cwd=work, extra_env={"TZ": "GRT-8"}).command_line()
    assert line == (f"cd '{work}' && MOCK=1 TZ=GRT-8 PYTHONPATH='{tmp_path / 'student lab'}' "
                    "python -m mca 'it'\"'\"'s'")


# -- real children ---------------------------------------------------------------

def _alive(pid: int) -> bool:
    """True while `pid` runs; a zombie (killed, not yet reaped by init) counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def _wait_gone(pid: int) -> bool:
    for _ in range(200):  # SIGKILL is asynchronous: allow the kernel a moment
        if not _alive(pid):
            return True
        time.sleep(0.01)
    return False


SLEEPER_WITH_GRANDCHILD = (
    "import subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
    "print(child.pid, flush=True)\n"
    "time.sleep(60)\n"
)


def test_real_timeout_kills_the_child_and_its_grandchild(tmp_path):
    with spawn.start([sys.executable, "-c", SLEEPER_WITH_GRANDCHILD], cwd=tmp_path) as child:
        for _ in range(500):
            if child.stdout_so_far().strip():
                break
            time.sleep(0.01)
        grandchild = int(child.stdout_so_far().split()[0])
        with pytest.raises(spawn.ChildTimeout) as caught:
            child.wait(timeout=0.3)
    assert caught.value.result.timed_out
    assert _wait_gone(child.pid) and _wait_gone(grandchild)


def test_real_run_timeout_under_freezegun_still_fires(tmp_path):
    with freeze_time("2030-01-01"):
        with pytest.raises(spawn.ChildTimeout):
            spawn.run([sys.executable, "-c", "import time; time.sleep(60)"], cwd=tmp_path, timeout=0.3)


def test_grandchildren_do_not_outlive_a_normal_exit(tmp_path):
    script = ("import subprocess, sys\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
              " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
              "print(child.pid)\n")
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, timeout=10)
    assert result.returncode == 0
    assert _wait_gone(int(result.stdout.split()[0]))


def test_real_flood_of_20_megabytes_is_capped(tmp_path):
    script = "import sys\nfor _ in range(20): sys.stdout.write('x' * 1_000_000)\nsys.stderr.write('done\\n')\n"
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, timeout=30, output_cap=200_000)
    assert result.returncode == 0 and result.stdout_truncated
    assert len(result.stdout) < 201_000
    assert result.stderr == "done\n"


def test_input_reaches_the_child_and_exit_status_is_kept(tmp_path):
    script = "import sys\ndata = sys.stdin.read()\nprint(data.upper())\nsys.exit(3)\n"
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, input="hello", timeout=10)
    assert (result.returncode, result.stdout.strip()) == (3, "HELLO")


def test_long_running_child_talks_through_stdin(tmp_path):
    script = "import sys\nfor line in sys.stdin:\n    print('got', line.strip(), flush=True)\n"
    with spawn.start([sys.executable, "-c", script], cwd=tmp_path) as child:
        child.send("one\n")
        child.send("two\n")
        child.close_stdin()
        result = child.wait(timeout=10)
    assert result.stdout.splitlines() == ["got one", "got two"]


def test_a_child_feels_ctrl_c_even_when_the_grader_ignores_it():
    """A grader started in the background has SIGINT ignored; its children must not inherit that,
    or every Ctrl-C check would fail a correct lab."""
    import signal
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        result = spawn.run([sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT))"],
                           cwd=".", timeout=30)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert "default_int_handler" in result.stdout, result.stdout
    assert signal.getsignal(signal.SIGINT) is previous
