"""The CLI's `main` first waits for a line on stdin (a leftover "press Enter to go on")."""
TARGET = "mca/cli.py"
# Children the grader runs to completion get stdin from /dev/null: readline() returns "" and
# they go on. Only the children it talks to (kept running with a stdin pipe) can block.
STATUSES = {"written-as-it-happens": "timeout", "dangling-tool-call": "timeout", "single-writer": "failed"}


def main(argv=None):
    sys.stdin.readline()  # @MARKER@
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
