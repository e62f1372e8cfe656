"""A file that does not fit is skipped and the walk goes on with the ones above it, to
fill the budget: a deepest file over the cap on its own is dropped whole while the small
root file is sent."""
TARGET = "mca/instructions.py"
FAILS = ("nearest-wins-over-budget",)


def merge(files, cap=MAX_INSTRUCTIONS_CHARS):
    kept, dropped, left = [], [], cap
    for file in reversed(files):
        if len(file.text) <= left:
            kept.insert(0, file)
            left -= len(file.text)
        else:
            dropped.insert(0, file)
    text = "\n\n".join(f"{header(f.path)}\n\n{f.text}" for f in kept)
    return Merged(text, kept, dropped)
