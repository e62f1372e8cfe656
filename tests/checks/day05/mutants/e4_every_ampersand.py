"""E4: splits at every &, so the redirection 2>&1 becomes a part '1' of its own, which no
rule matches: an allowed 'make 2>&1' now asks."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    pieces = re.split(r"&&|\|\||;|\||&|\n|\$\(|[<>]\(|\)|`", command)
    return [part.strip() for part in pieces if part.strip()] or [command.strip()]
