"""E4: splits at every separator but keeps the spaces around each part, so ' rm x'
after '&& ' no longer matches 'rm *' and gets the default instead of its rule."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    return [part for part in SEPARATORS.split(command) if part.strip()] or [command]
