"""looks_secret() knows every key shape but not MCA_API_KEY's own value, which has none of
them: the user's real key is written into the memory file."""
TARGET = "mca/memory/secrets.py"
FAILS = ("secret-refused",)

import re


def looks_secret(text, known=()):
    shapes = [r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}", r"(?<![A-Za-z0-9])AKIA[0-9A-Z]{16}(?![0-9A-Z])",
              r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
              r"(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}",
              r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}", r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
              r"(?i)(?<![A-Za-z0-9])(?:password|passwd|pwd)\s*[=:]\s*\S"]
    for shape in shapes:
        if re.search(shape, text):
            return "it looks like a secret"
    return None
