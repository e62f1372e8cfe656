"""E4: status and both streams, each cut and labelled, but decoded strictly as UTF-8:
a command that prints a Latin-1 byte makes the tool raise and the turn crash."""
TARGET = "mca/tools/shell.py"
FAILS = ("stderr-captured",)


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
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
        raise ToolError(f"timed out after {timeout:g} s") from None
    ms = round((time.monotonic() - started) * 1000)
    parts = [f"exit status {proc.returncode} ({ms} ms)"]
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    result = "\n".join(parts)
    if proc.returncode != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
