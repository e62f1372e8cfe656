"""E2: its own session and a bounded drain, but on a timeout only SIGTERM to the group
("let it clean up"), never SIGKILL: a process that ignores SIGTERM lives on."""
TARGET = "mca/tools/shell.py"
FAILS = ("timeout-kills-group",)


def kill_group(proc: subprocess.Popen) -> None:
    try:
        if proc.pid > 0 and os.getpgid(proc.pid) == proc.pid != os.getpgrp():
            os.killpg(proc.pid, signal.SIGTERM)
        else:
            proc.terminate()
    except (ProcessLookupError, PermissionError, OSError):
        pass
