"""E4, written differently: both streams in brackets, each cut on its own with the
provided truncate, and the exit status in a line of its own at the end."""
TARGET = "mca/tools/shell.py"
FAILS = ()


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
    shown_streams = []
    for name, data in (("stdout", out), ("stderr", err)):
        text, cut = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        shown_streams.append(f"[{name}{', cut' if cut else ''}]\n{text}" if text else f"[{name}: empty]")
    result = "\n".join(shown_streams) + f"\n[exit code: {proc.returncode}]"
    if proc.returncode != 0:  # a command that failed is a failed call
        raise ToolError(result)
    return result
