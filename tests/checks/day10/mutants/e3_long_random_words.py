"""looks_secret() refuses any long run of letters and digits ("keys look random"): a commit
hash and a build id are refused, so memory loses what a project needs most."""
TARGET = "mca/memory/secrets.py"
FAILS = ("secret-refused",)

import re


def looks_secret(text, known=()):
    if any(value and len(value) >= 8 and value in text for value in known):
        return "it holds the value of MCA_API_KEY"
    if re.search(r"[A-Za-z0-9_\-]{20,}", text) or re.search(r"(?i)password\s*[=:]", text) or "PRIVATE KEY" in text:
        return "it looks like a key"
    return None
