"""Every run double-forks a daemon (fork, setsid, fork, stdio to /dev/null) that sleeps 600 s."""
TARGET = "mca/cli.py"


def main(argv=None):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "@MARKER@"])
        os._exit(0)
    os.wait()
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
