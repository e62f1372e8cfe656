"""Grader harness: hold one conversation with the lab's Chat over a gateway that records.

    python chat_turns.py LAB JOB.json      (the prelude takes LAB)

JOB is {"users": [...], "replies": [...]}. The gateway stands in for the model at the
seam the day is about (mca/gateway/base.py: complete(messages) -> str): it keeps a
copy of every message list as it was when handed over (what would go on the wire) and
answers with the next reply the grader chose. So what Chat.ask sends is seen without
any HTTP client of the lab's. One answer: {"turns_done", "requests"}, and the stub or
exception that ended the conversation, if one did.
"""
import copy

from harnesskit import failure, report, run


class RecordingGateway:
    def __init__(self, replies):
        self.replies = list(replies)
        self.requests = []

    def complete(self, messages):
        self.requests.append(copy.deepcopy(list(messages)))
        index = len(self.requests) - 1
        return self.replies[index] if index < len(self.replies) else ""


def main(job):
    found = {"turns_done": 0}
    try:
        from mca.chat import Chat

        gateway = RecordingGateway(job["replies"])
        found["requests"] = gateway.requests
        chat = Chat(gateway)
        for text in job["users"]:
            chat.ask(text)
            found["turns_done"] += 1
    except BaseException as exc:  # the lab's code may raise anything, even SystemExit
        found.update(failure(exc))
    report(found)


run(main)
