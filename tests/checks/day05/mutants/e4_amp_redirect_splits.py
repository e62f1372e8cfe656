"""E4: keeps the & of 2>&1 together but splits before the one of &>, so 'make test &> build.log'
becomes 'make test' and a part '> build.log' that no rule matches: an allowed command asks."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    pieces = re.split(r"&&|\|\||;|\||(?<![<>&])&|\n|\$\(|[<>]\(|\)|`", command)
    return [part.strip() for part in pieces if part.strip()] or [command.strip()]
