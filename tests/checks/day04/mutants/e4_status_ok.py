"""E4: the status and both streams, always as an ok result ("the status says it all").

The model reads "exit status 127" or "exit status 1", but the call itself succeeded:
the agent shows `run_command ok`, and a model that goes by the call's outcome takes a
command that was never found, or a failing test run, for a pass.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("exit-status-reported",)


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # its own process group: one kill stops it all
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        try:  # what was written before the kill, without waiting on a pipe a survivor still holds
            proc.communicate(timeout=DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        raise ToolError(f"timed out after {timeout:g} s: the command and everything it started were stopped") from None
    except BaseException:  # Ctrl-C, or anything else: never leave the command running
        kill_group(proc)
        raise
    code = proc.returncode
    ms = round((time.monotonic() - started) * 1000)
    # The status goes first: if the output is long and gets cut, it survives.
    parts = [f"exit status {code} ({ms} ms)"]
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    return "\n".join(parts)
