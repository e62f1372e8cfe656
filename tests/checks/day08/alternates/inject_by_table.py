"""A correct E2 written differently: a dispatch on what the path is, os.scandir for the
listing in its own format (`- name: N bytes`, `- sub/`), and the cap applied once at the end."""
TARGETS = {"inject": "mca/refs/inject.py", "listing": "mca/refs/inject.py"}
FAILS = ()

import os


def inject(ref, workdir):
    if "://" in ref:
        if not ref.lower().startswith(("http://", "https://")):
            return not_injected(ref, "only http and https pages are fetched")
        kind, produce = "url", lambda: fetch_url(ref, FETCH_TIMEOUT)
    else:
        try:
            path = resolve_inside(Path(workdir), ref)
        except ToolError as exc:
            return not_injected(ref, f"refused: {exc}")
        if not path.exists():
            return not_injected(ref, "nothing of that name")
        if path.is_dir():
            kind, produce = "dir", lambda: listing(path)
        elif path.suffix.lower() in IMAGE_TYPES:
            return image(ref, path)
        else:
            kind, produce = "file", lambda: str(path.read_bytes(), "utf-8")
    try:
        text = produce()
    except (FetchError, UnicodeDecodeError, OSError) as exc:
        return not_injected(ref, f"could not read it ({type(exc).__name__})")
    return capped(ref, kind, text)


def listing(directory):
    with os.scandir(directory) as it:
        entries = sorted(it, key=lambda e: e.name)
    lines = [f"- {e.name}/" if e.is_dir() else f"- {e.name}: {e.stat().st_size} bytes" for e in entries[:MAX_LISTING]]
    if len(entries) > MAX_LISTING:
        lines.append(f"(+{len(entries) - MAX_LISTING} more)")
    return "\n".join(lines) + "\n"
