"""E2: starts the command in a session of its own, but on a timeout kills only the leader.

start_new_session=True is half the idea: the group exists, yet proc.kill() signals the
shell alone. The pipes are drained for a bounded time, so the tool comes back, and the
grandchild, alone in its group, lives on.
"""
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
        proc.kill()
        try:
            proc.communicate(timeout=DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        raise ToolError(f"timed out after {timeout:g} s") from None
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
