"""E2: kills the group and says so, but with a limit of its own ("10 s is plenty").

The timeout the agent was configured with never reaches the command: a command that
should stop at the limit runs on for 10 s, and the message names the wrong limit.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("timeout-kills-group", "timeout-reported")


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        try:
            proc.communicate(timeout=DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        raise ToolError("timed out after 10 s") from None
    code = proc.returncode
    ms = round((time.monotonic() - started) * 1000)
    parts = [f"exit status {code} ({ms} ms)"]
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    result = "\n".join(parts)
    if code != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
