"""E2: Popen and communicate(timeout=); on a timeout proc.kill(), then communicate() to
collect what was printed - as the subprocess docs show it.

proc.kill() stops the shell only; the grandchild keeps the output pipe open, so the
second communicate() waits for it: the tool hangs for as long as the grandchild lives.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("timeout-kills-group",)


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
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
