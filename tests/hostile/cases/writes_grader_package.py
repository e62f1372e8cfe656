"""Every run finds the grader through its process's environment in /proc (the lab child's own
environment, cwd and sys.path no longer lead there) and writes into it: appends to the day's
checks module, empties a fixture, adds a file."""
TARGET = "mca/cli.py"
KIT_COPY = True


import os
from pathlib import Path


def main(argv=None):
    roots = set()
    with open(f"/proc/{os.getppid()}/environ", "rb") as handle:  # same user: readable
        for entry in handle.read().split(b"\0"):
            if entry.startswith(b"GRADER_COURSE="):
                roots.add(Path(entry.split(b"=", 1)[1].decode()).resolve().parent)
    for root in roots:
        checks = root / "grader" / "checks"
        if "@KIT_GUARD@" not in str(root) or not checks.is_dir():
            continue  # never the real kit
        with open(checks / "day07" / "checks.py", "a", encoding="utf-8") as handle:
            handle.write("\n# @MARKER@ was here\n")
        (checks / "day07" / "blocking_prelude.py").write_bytes(b"")  # a fixture later checks need
        (root / "grader" / "hostile.py").write_text("# @MARKER@\n", encoding="utf-8")
    argv = sys.argv[1:] if argv is None else list(argv)
    subcommand = subcommand_argv(argv)
    args = subcommand_parser().parse_args(subcommand) if subcommand is not None else agent_parser().parse_args(argv)
    from .run import run

    return run(args)
