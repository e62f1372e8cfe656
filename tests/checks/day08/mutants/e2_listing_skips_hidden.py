"""listing leaves out entries whose names start with a dot, as `ls` does: a `.env`, a
`.gitignore` or a `.github/` the model may need is never named, though the sheet
asks for every entry."""
TARGET = "mca/refs/inject.py"
FAILS = ("dir-listed",)


def listing(directory):
    entries = sorted((p for p in directory.iterdir() if not p.name.startswith(".")), key=lambda p: p.name)
    lines = []
    for entry in entries[:MAX_LISTING]:
        if entry.is_dir():
            lines.append(entry.name + "/")
        else:
            lines.append(f"{entry.name}  {entry.stat().st_size} bytes")
    if len(entries) > MAX_LISTING:
        lines.append(f"... and {len(entries) - MAX_LISTING} more entries")
    return "\n".join(lines) + "\n" if lines else "(empty directory)\n"
