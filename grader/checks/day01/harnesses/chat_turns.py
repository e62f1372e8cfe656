"""Grader harness: hold one conversation with the lab's Chat over a gateway that records.

    python chat_turns.py LAB JOB.json      (the prelude takes LAB)

JOB is {"users": [...], "replies": [...]}. The gateway stands in for the model at the
seam the day is about (mca/gateway/base.py: complete(messages) -> str): it keeps a
copy of every message list as it was when handed over (what would go on the wire) and
answers with the next reply the grader chose. So what Chat.ask sends is seen without
any HTTP client of the lab's. One JSON line goes to stdout, last.
"""
import copy
import json
import sys
import traceback
from pathlib import Path


def failure(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    lab = [f for f in frames if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(lab[-1].filename).name}, line {lab[-1].lineno}" if lab else "?"
    return {"stub" if isinstance(exc, NotImplementedError) else "raised": f"{type(exc).__name__}: {exc}",
            "where": where}


class RecordingGateway:
    def __init__(self, replies):
        self.replies = list(replies)
        self.requests = []

    def complete(self, messages):
        self.requests.append(copy.deepcopy(list(messages)))
        index = len(self.requests) - 1
        return self.replies[index] if index < len(self.replies) else ""


job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
answer = {"harness": "chat_turns", "turns_done": 0}
try:
    from mca.chat import Chat

    gateway = RecordingGateway(job["replies"])
    answer["requests"] = gateway.requests
    chat = Chat(gateway)
    for text in job["users"]:
        chat.ask(text)
        answer["turns_done"] += 1
except BaseException as exc:  # the lab's code may raise anything, even SystemExit
    answer.update(failure(exc))
print(json.dumps(answer, default=repr))
