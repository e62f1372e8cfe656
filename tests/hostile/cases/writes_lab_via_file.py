"""Every run writes into its own lab through `__file__`: appends to cli.py, adds a file, deletes the README."""
TARGET = "mca/cli.py"


from pathlib import Path


def main(argv=None):
    lab = Path(__file__).resolve().parents[1]
    with open(lab / "mca" / "cli.py", "a", encoding="utf-8") as handle:
        handle.write("# @MARKER@ was here\n")
    (lab / "hostile-was-here.txt").write_text("@MARKER@\n", encoding="utf-8")
    (lab / "README.md").unlink(missing_ok=True)
    argv = sys.argv[1:] if argv is None else list(argv)
    subcommand = subcommand_argv(argv)
    args = subcommand_parser().parse_args(subcommand) if subcommand is not None else agent_parser().parse_args(argv)
    from .run import run

    return run(args)
