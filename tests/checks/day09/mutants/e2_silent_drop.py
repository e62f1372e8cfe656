"""The deepest files win, but what does not fit simply is not kept: Merged.dropped stays
empty, so the bill never names the files the model was not given."""
TARGET = "mca/instructions.py"
FAILS = ("nearest-wins-over-budget",)


def merge(files, cap=MAX_INSTRUCTIONS_CHARS):
    kept, left, cut = [], cap, {}
    for file in reversed(files):
        if len(file.text) <= left:
            kept.insert(0, file)
            left -= len(file.text)
        elif not kept:
            kept.insert(0, InstructionFile(file.path, file.text[:cap]))
            cut[file.path] = len(file.text)
            left = 0
        else:
            break
    text = "\n\n".join(f"{header(f.path)}\n\n{f.text}" for f in kept)
    return Merged(text, kept, [], cut)
