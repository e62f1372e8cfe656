"""Every `python -m mca` first prints 100 MB to stdout (a million 100-byte lines), then works."""
TARGET = "mca/cli.py"


def main(argv=None):
    line = "flood @MARKER@ ".ljust(99, "x") + "\n"
    for _ in range(100):
        sys.stdout.write(line * 10_000)
    sys.stdout.flush()
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
