"""E4: the exit status, then stdout - "stderr is just noise".

Test runners, compilers and tracebacks write to stderr: unittest's whole report is
there, so the model sees "exit status 1" and nothing to act on.
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
    text, _ = truncate(out.decode("utf-8", errors="replace"), STREAM_CHARS)
    result = f"exit status {code} ({ms} ms)\n{text}"
    if code != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
