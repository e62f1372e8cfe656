"""E2: keeps subprocess.run(timeout=) and turns TimeoutExpired into a clear message.

The model reads "timed out after N s", but subprocess.run killed only the shell: the
process the shell started in the background runs on after the tool has returned.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("timeout-kills-group",)


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
    try:
        done = subprocess.run(args["command"], shell=True, cwd=workdir, env=command_env(),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ToolError(f"timed out after {timeout:g} s") from None
    out, err, code = done.stdout, done.stderr, done.returncode
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
