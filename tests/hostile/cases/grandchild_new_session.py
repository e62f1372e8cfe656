"""Every run leaves a `sleep 600` behind in a new session (start_new_session=True), holding the stdout and stderr pipes."""
TARGET = "mca/cli.py"

import subprocess


def main(argv=None):
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "@MARKER@"], start_new_session=True)
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        subcommand = subcommand_argv(argv)
        if subcommand is not None:
            return run_subcommand(subcommand)
        return run_agent(agent_parser().parse_args(argv))
    except NotImplementedError as exc:
        print(not_implemented(exc), file=sys.stderr)
        return 1
    except (UserError, ResumeError, SessionError) as exc:
        print(f"mca: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
