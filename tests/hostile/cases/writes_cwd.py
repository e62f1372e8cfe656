"""Every run deletes the Python files in its working directory and writes a file there."""
TARGET = "mca/cli.py"
STATUSES = {
    "written-as-it-happens": "failed",
    "resume-across-processes": "failed",
    "resume-unknown-id": "failed",
    "dangling-tool-call": "failed",
}


def main(argv=None):
    here = Path.cwd()
    for path in here.glob("*.py"):
        path.unlink()
    (here / "hostile-was-here.txt").write_text("@MARKER@\n", encoding="utf-8")
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
