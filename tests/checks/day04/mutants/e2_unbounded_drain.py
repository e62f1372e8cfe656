"""E2: kills the whole group at the limit, then collects the output with communicate()
and no limit: a process that left the group and holds the pipe keeps the call waiting."""
TARGET = "mca/tools/shell.py"
FAILS = ("timeout-kills-group",)


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        proc.communicate()
        raise ToolError(f"timed out after {timeout:g} s") from None
    ms = round((time.monotonic() - started) * 1000)
    parts = [f"exit status {proc.returncode} ({ms} ms)"]
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    result = "\n".join(parts)
    if proc.returncode != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
