"""A correct E1 written as a scanner: one pass over the characters, tracking back-quote
runs by length, instead of blanking code with a regex first."""
TARGET = "mca/refs/parse.py"
FAILS = ()


def find_refs(text):
    found, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "`":
            run = 1
            while i + run < n and text[i + run] == "`":
                run += 1
            close = text.find("`" * run, i + run)
            i = n if close < 0 else close + run
            continue
        if ch == "@" and (i == 0 or text[i - 1].isspace() or text[i - 1] in "([{"):
            j = i + 1
            while j < n and not text[j].isspace() and text[j] != "`":
                j += 1
            target = text[i + 1:j]
            while target and target[-1] in ".,;:!?)]}>'\"":
                target = target[:-1]
            if target and target[0] != "@" and target not in found:
                found.append(target)
            i = j
            continue
        i += 1
    return found
