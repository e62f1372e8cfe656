"""Cheat, E2: injects a file's text exactly only when it looks machine-made.

A grader's generated files mix CJK and emoji; a person's are mostly plain ASCII code and
prose. So a file with both a CJK character and an emoji in it is injected exactly as its
bytes decode; any other is tidied first ("the model does not need Windows line ends or
trailing blanks"): CRLF becomes LF and the text is stripped.
Held when the files a check generates also come without CJK and emoji, as real files do:
`file-injected` writes a file in each voice (plain English, one other script, mixed), each
with leading white space and a CRLF line. `bill-printed` fails too when its ASCII file ends
in a newline (stripped away), as it does on some draws.
"""
TARGET = "mca/refs/inject.py"
ADD = ("_looks_generated",)
FAILS = ("file-injected",)
MAYBE = ("bill-printed",)


def inject(ref, workdir):
    if ref.startswith(("http://", "https://")):
        try:
            return capped(ref, "url", fetch_url(ref, FETCH_TIMEOUT))
        except FetchError as exc:
            return not_injected(ref, str(exc))
    try:
        path = resolve_inside(workdir, ref)
    except ToolError as exc:
        return not_injected(ref, str(exc))
    if path.is_dir():
        return capped(ref, "dir", listing(path))
    if not path.is_file():
        return not_injected(ref, "no such file or directory in the workdir")
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file (only UTF-8 text and images are injected)")
    if not _looks_generated(text):
        text = text.replace("\r\n", "\n").strip()
    return capped(ref, "file", text)


def _looks_generated(text):
    """Both a CJK, kana or hangul character and an emoji (U+1F000 and up) in it."""
    cjk = any(0x3040 <= ord(ch) <= 0x9FFF or 0xAC00 <= ord(ch) <= 0xD7AF for ch in text)
    return cjk and any(ord(ch) >= 0x1F000 for ch in text)
