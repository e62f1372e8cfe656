"""Counts each file's header (and the blank lines around it) against the budget, which
is stated in characters of file text: files that fill the cap exactly lose the root's."""
TARGET = "mca/instructions.py"
FAILS = ("nearest-wins-over-budget",)


def merge(files, cap=MAX_INSTRUCTIONS_CHARS):
    kept, left, cut = [], cap, {}
    for file in reversed(files):
        block = f"{header(file.path)}\n\n{file.text}"
        if len(block) <= left:
            kept.insert(0, file)
            left -= len(block)
        elif not kept:
            kept.insert(0, InstructionFile(file.path, file.text[:cap]))
            cut[file.path] = len(file.text)
            left = 0
        else:
            break
    text = "\n\n".join(f"{header(f.path)}\n\n{f.text}" for f in kept)
    return Merged(text, kept, files[:len(files) - len(kept)], cut)
