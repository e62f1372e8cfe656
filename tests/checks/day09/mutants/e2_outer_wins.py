"""Fills the budget from the root down and drops what no longer fits (declared): the
general rules are kept and the nearest ones, the most specific, are what is lost."""
TARGET = "mca/instructions.py"
FAILS = ("nearest-wins-over-budget",)


def merge(files, cap=MAX_INSTRUCTIONS_CHARS):
    kept, left, cut = [], cap, {}
    for file in files:
        if len(file.text) <= left:
            kept.append(file)
            left -= len(file.text)
        elif not kept:
            kept.append(InstructionFile(file.path, file.text[:cap]))
            cut[file.path] = len(file.text)
            left = 0
        else:
            break
    dropped = files[len(kept):]
    text = "\n\n".join(f"{header(f.path)}\n\n{f.text}" for f in kept)
    return Merged(text, kept, dropped, cut)
