"""Off by one at the top: the walk goes up while the directory has no .git, so the
root's own AGENTS.md, the rules for the whole project, is never read."""
TARGET = "mca/instructions.py"
FAILS = ("root-to-leaf-order", "stops-at-repo-root", "nearest-wins-over-budget")
MAYBE = ("changed-note",)  # only when the file changed in between is the root's


def find_instruction_files(workdir):
    here = workdir.resolve()
    found = []
    while not (here / ".git").exists() and here.parent != here:
        if (here / INSTRUCTIONS_FILE).is_file():
            found.insert(0, here / INSTRUCTIONS_FILE)
        here = here.parent
    return found
