"""find_instruction_files collects every AGENTS.md from the workdir up to the file
system's root ("more rules is safer"), outermost first: the .git is never asked, so a
file above the repository is read."""
TARGET = "mca/instructions.py"
FAILS = ("root-to-leaf-order", "stops-at-repo-root", "no-file-no-message")


def find_instruction_files(workdir):
    workdir = workdir.resolve()
    found = [d / INSTRUCTIONS_FILE for d in (workdir, *workdir.parents) if (d / INSTRUCTIONS_FILE).is_file()]
    return list(reversed(found))
