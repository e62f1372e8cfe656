"""looks_secret() joins the shapes into one verbose regular expression with named groups and
names the group that matched."""
TARGET = "mca/memory/secrets.py"
FAILS = ()

import re


def looks_secret(text, known=()):
    for value in known:
        if len(value or "") >= 8 and value in text:
            return "it holds the value of MCA_API_KEY"
    pattern = re.compile(r"""
        (?<![A-Za-z0-9]) (?P<api_key> sk-[\w-]{20,} )
      | (?<![A-Za-z0-9]) (?P<aws> AKIA[0-9A-Z]{16} ) (?![0-9A-Z])
      | (?<![A-Za-z0-9]) (?P<github> gh[pousr]_[A-Za-z0-9]{36,} | github_pat_\w{22,} )
      | (?<![A-Za-z0-9]) (?P<slack> xox[abprs]-[A-Za-z0-9-]{10,} )
      | (?<![A-Za-z0-9]) (?P<jwt> eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]{8,} )
      | (?P<private_key> -----BEGIN\ [A-Z\ ]*PRIVATE\ KEY----- )
      | (?<![A-Za-z0-9]) (?P<password> (?i:password|passwd|pwd) \s*[=:]\s*\S )
    """, re.VERBOSE | re.ASCII)
    found = pattern.search(text)
    return f"it looks like it holds a {found.lastgroup.replace('_', ' ')}" if found else None
