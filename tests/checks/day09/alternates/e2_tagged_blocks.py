"""merge with tagged blocks instead of Markdown headers (the tag names the path), the
budget worked out first as a suffix sum from the deepest file up."""
TARGET = "mca/instructions.py"


def merge(files, cap=MAX_INSTRUCTIONS_CHARS):
    sizes = [len(f.text) for f in files]
    first = len(files)
    total = 0
    while first > 0 and total + sizes[first - 1] <= cap:
        first -= 1
        total += sizes[first]
    kept, cut = list(files[first:]), {}
    if not kept and files:
        last = files[-1]
        kept, cut, first = [InstructionFile(last.path, last.text[:cap])], {last.path: len(last.text)}, len(files) - 1
    blocks = []
    for f in kept:
        note = f" (cut: {len(f.text)} of {cut[f.path]} chars)" if f.path in cut else ""
        blocks.append(f'<instructions path="{f.path}"{note}>\n{f.text}\n</instructions>')
    return Merged("\n".join(blocks), kept, list(files[:first]), cut)
