"""The trap half-fixed: the walk goes on up to the root instead of stopping at the first
file, but returns the files in the order it met them, the workdir's first."""
TARGET = "mca/instructions.py"
FAILS = ("root-to-leaf-order", "stops-at-repo-root", "nearest-wins-over-budget")


def find_instruction_files(workdir):
    here = workdir.resolve()
    found = []
    while True:
        candidate = here / INSTRUCTIONS_FILE
        if candidate.is_file():
            found.append(candidate)
        if (here / ".git").exists() or here.parent == here:
            return found
        here = here.parent
