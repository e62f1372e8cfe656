"""(Provided code.) load_instructions bills each file's UTF-8 bytes as its chars: a CJK
or emoji file costs three or four times what it holds."""
TARGET = "mca/instructions.py"
FAILS = ("bill-printed",)


def load_instructions(workdir):
    root = repository_root(workdir)
    on_disk = read_instructions(find_instruction_files(workdir), root)
    merged = merge(on_disk)
    files = [{"path": f.path, "chars": len(f.text.encode("utf-8")), "tokens": estimate_tokens(f.text),
              "sha256": digest(f.text)} for f in merged.kept]
    dropped = [{"path": f.path, "chars": len(f.text), "sha256": digest(f.text)} for f in merged.dropped]
    return Instructions(merged.text, files, dropped, str(Path(workdir).resolve()))
