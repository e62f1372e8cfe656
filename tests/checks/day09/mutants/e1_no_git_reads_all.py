"""Right inside a repository, but with no .git anywhere it reads every AGENTS.md above
the workdir ("no repository: take what there is") instead of the workdir's alone."""
TARGET = "mca/instructions.py"
FAILS = ("stops-at-repo-root",)


def find_instruction_files(workdir):
    workdir = workdir.resolve()
    chain = []
    for here in (workdir, *workdir.parents):
        chain.append(here)
        if (here / ".git").exists():
            break
    return [d / INSTRUCTIONS_FILE for d in reversed(chain) if (d / INSTRUCTIONS_FILE).is_file()]
