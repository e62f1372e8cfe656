"""Grader harness: the lab's approval gate decides a list of generated calls.

    python decide.py LAB JOB.json        (the prelude takes LAB)

JOB: {"workdir": DIR, "extra": ["deny run_command x *", ...], "calls": [{"name", "args"[, "answer"]}, ...]}.
The rules are loaded as the agent loads them (built in, DIR/.mca/rules.toml, then the
--rule texts) and one Approver decides every call in turn, as in one session. Whoever
is "at the terminal" answers the call's "answer" ("n" when it has none) and is recorded,
so an ask shows as asked, a deny as neither. One answer per call:
{"i": N, "allowed": bool, "asked": [prompts], "reason": str}, or a stub or an exception.
"""
from pathlib import Path

from harnesskit import answer, report, run


def main(job):
    from mca.tools.approval import Approver, load_rules
    from mca.tools.registry import default_tools

    workdir = Path(job["workdir"])  # the gate cannot even be built: said once, as fatal
    approver = Approver.for_tools(default_tools(workdir), load_rules(workdir, job.get("extra", [])),
                                  ask=None, workdir=workdir)
    asked = []
    typed = ["n"]

    def ask(description):
        asked.append(description)
        return typed[0]

    def decide(call):
        decision = approver.decide(call["name"], call["args"])
        return {"allowed": bool(decision.allowed), "asked": list(asked), "reason": str(decision.reason)}

    approver.ask = ask
    for i, call in enumerate(job["calls"]):
        asked.clear()
        typed[0] = str(call.get("answer", "n"))
        report(answer(decide, call), i=i)


run(main)
