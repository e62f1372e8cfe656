"""E4: stderr only when the command failed ("warnings on a success are noise").

The failing first run shows unittest's report, but the passing second run hides it,
so "Ran N tests ... OK" never reaches the model; a successful command's stderr is lost.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("fix-and-verify", "stderr-captured")


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
        raise ToolError(f"timed out after {timeout:g} s: the command and everything it started were stopped") from None
    except BaseException:
        kill_group(proc)
        raise
    code = proc.returncode
    ms = round((time.monotonic() - started) * 1000)
    parts = [f"exit status {code} ({ms} ms)"]
    streams = (("stdout", out), ("stderr", err)) if code else (("stdout", out),)
    for name, data in streams:
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    result = "\n".join(parts)
    if code != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
