"""(Provided code.) read_instructions reads each file with read_text(), in text mode:
universal newlines turn a CRLF file's line ends into LF, so the text sent, frozen and
billed is not the file's."""
TARGET = "mca/instructions.py"
FAILS = ("bill-printed",)


def read_instructions(paths, root):
    files = []
    for path in paths:
        path, root = path.resolve(), root.resolve()
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        files.append(InstructionFile(shown, path.read_text(encoding="utf-8", errors="replace")))
    return files
