"""The root is the nearest directory whose .git is a directory: a .git file (a git
worktree, a submodule) is not taken for a repository, so the walk goes past it."""
TARGET = "mca/instructions.py"
FAILS = ("root-to-leaf-order", "stops-at-repo-root")


def find_instruction_files(workdir):
    workdir = workdir.resolve()
    root = workdir
    for here in (workdir, *workdir.parents):
        if (here / ".git").is_dir():
            root = here
            break
    chain = [workdir]
    while chain[-1] != root:
        chain.append(chain[-1].parent)
    return [d / INSTRUCTIONS_FILE for d in reversed(chain) if (d / INSTRUCTIONS_FILE).is_file()]
