"""looks_secret() refuses every text that mentions a password or a key name ("better safe"):
"the password policy needs 12 characters" and "the key is read from MCA_API_KEY" are lost."""
TARGET = "mca/memory/secrets.py"
FAILS = ("secret-refused",)

import re


def looks_secret(text, known=()):
    if any(value and len(value) >= 8 and value in text for value in known):
        return "it holds the value of MCA_API_KEY"
    if re.search(r"(?i)password|passwd|pwd|api_key", text):
        return "it mentions a password or a key"
    for shape in (r"\bsk-[A-Za-z0-9_-]{20,}", r"\bAKIA[0-9A-Z]{16}\b", r"\bgh[pousr]_[A-Za-z0-9]{36,}",
                  r"github_pat_[A-Za-z0-9_]{22,}", r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
                  r"eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]{8,}", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"):
        if re.search(shape, text):
            return "it looks like a key"
    return None
