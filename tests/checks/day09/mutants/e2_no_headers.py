"""The cap and the order right, the files joined by blank lines without a header: the
model cannot tell which file said what, nor which rule is the nearer one."""
TARGET = "mca/instructions.py"
FAILS = ("root-to-leaf-order",)


def merge(files, cap=MAX_INSTRUCTIONS_CHARS):
    kept, left = [], cap
    for file in reversed(files):
        if len(file.text) > left:
            break
        kept.insert(0, file)
        left -= len(file.text)
    if not kept and files:
        kept = [InstructionFile(files[-1].path, files[-1].text[:cap])]
        return Merged(kept[0].text, kept, files[:-1], {files[-1].path: len(files[-1].text)})
    return Merged("\n\n".join(f.text for f in kept), kept, files[:len(files) - len(kept)])
