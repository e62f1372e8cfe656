"""looks_secret() knows the two shapes everyone has heard of (sk- and AKIA) and password=:
a GitHub or Slack token, a JWT and a private key are written."""
TARGET = "mca/memory/secrets.py"
FAILS = ("secret-refused",)

import re


def looks_secret(text, known=()):
    if any(value and len(value) >= 8 and value in text for value in known):
        return "it holds the value of MCA_API_KEY"
    if re.search(r"\bsk-[A-Za-z0-9_-]{20,}|\bAKIA[0-9A-Z]{16}\b|(?i:\bpassword\s*[=:]\s*\S)", text):
        return "it looks like a key"
    return None
