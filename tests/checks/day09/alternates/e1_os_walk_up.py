"""find_instruction_files with os.path: the root found first by its own loop, then the
directories listed from the root down by their relative parts."""
TARGET = "mca/instructions.py"

import os


def find_instruction_files(workdir):
    start = os.path.realpath(workdir)
    root, here = start, start
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            root = here
            break
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    rest = os.path.relpath(start, root)
    parts = [] if rest == "." else rest.split(os.sep)
    out, current = [], root
    for part in [None, *parts]:
        if part is not None:
            current = os.path.join(current, part)
        candidate = os.path.join(current, INSTRUCTIONS_FILE)
        if os.path.isfile(candidate):
            out.append(Path(candidate))
    return out
