"""E4: splits at the control operators (&&, ||, ;, |, &, newlines) but not inside
command substitutions or process substitutions: 'ls $(rm -rf build)' is one part."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    pieces = re.split(r"&&|\|\||;|\||(?<![<>&])&(?![>&])|\n", command)
    return [part.strip() for part in pieces if part.strip()] or [command.strip()]
