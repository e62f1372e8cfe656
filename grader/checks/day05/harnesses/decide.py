"""Grader harness: the lab's approval gate decides a list of generated calls.

    python decide.py LAB JOB.json        (the prelude takes LAB)

JOB: {"workdir": DIR, "extra": ["deny run_command x *", ...], "calls": [{"name", "args"[, "answer"]}, ...]}.
The rules are loaded as the agent loads them (built in, DIR/.mca/rules.toml, then the
--rule texts) and one Approver decides every call in turn, as in one session. Whoever
is "at the terminal" answers the call's "answer" ("n" when it has none) and is recorded,
so an ask shows as asked, a deny as neither. Prints one JSON line per call:
{"harness": "decide", "i": N, "allowed": bool, "asked": [prompts], "reason": str}
or a line with "stub" (a TODO raised) or "raised" (any other exception) and "where".
"""
import json
import sys
import traceback
from pathlib import Path

job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))


def say(**fields):
    print(json.dumps({"harness": "decide", **fields}, ensure_ascii=False), flush=True)


def where(exc):
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/mca/" in f.filename.replace("\\", "/")]
    frame = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
    return f"{frame.filename.replace(chr(92), '/').rsplit('/mca/', 1)[-1]}, line {frame.lineno}"


try:
    from mca.tools.approval import Approver, load_rules
    from mca.tools.registry import default_tools

    workdir = Path(job["workdir"])
    approver = Approver.for_tools(default_tools(workdir), load_rules(workdir, job.get("extra", [])),
                                  ask=None, workdir=workdir)
except Exception as exc:  # the gate cannot even be built: say so once
    say(i=-1, raised=f"{type(exc).__name__}: {exc}", where=where(exc))
    sys.exit(0)

asked = []
answer = ["n"]


def ask(description):
    asked.append(description)
    return answer[0]


approver.ask = ask
for i, call in enumerate(job["calls"]):
    asked.clear()
    answer[0] = str(call.get("answer", "n"))
    try:
        decision = approver.decide(call["name"], call["args"])
    except NotImplementedError as exc:
        say(i=i, stub=str(exc), where=where(exc))
        continue
    except Exception as exc:
        say(i=i, raised=f"{type(exc).__name__}: {exc}", where=where(exc))
        continue
    say(i=i, allowed=bool(decision.allowed), asked=list(asked), reason=str(decision.reason))
