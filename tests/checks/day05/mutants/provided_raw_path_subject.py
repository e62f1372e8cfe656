"""(provided code) matches a path rule against the path as the model spelled it:
'./secrets/k', 'notes/../secrets/k' or a symlink to secrets/ walk around
'deny write_file secrets/*'. The kit's subject_of resolves the path first; this
entry proves the checks notice when it does not."""
TARGET = "mca/tools/approval.py"
FAILS = ("deny-beats-allow",)
MAYBE = ("yes-never-overrides-deny",)


def subject_of(name, args, workdir=None):
    if name == "run_command":
        return str(args.get("command", ""))
    return str(args.get("path", ""))
