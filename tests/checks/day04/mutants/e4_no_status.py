"""E4: both streams, each cut and labelled, but no exit status ("the output says it all").

A command that fails quietly (`exit 3`, a grep that finds nothing) comes back empty,
and a failing run looks like any other.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("exit-status-reported",)


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        try:
            proc.communicate(timeout=DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        raise ToolError(f"timed out after {timeout:g} s: the command and everything it started were stopped") from None
    except BaseException:
        kill_group(proc)
        raise
    parts = []
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    result = "\n".join(parts) or "(no output)"
    if proc.returncode != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
