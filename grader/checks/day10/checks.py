"""Day 10 checks: memory that survives the session, append-only, recalled with the bill.

The contract is shared/days/week-2.md, day 10. survives-sessions, secret-refused,
forget-works, remember-gated and bill-printed run the lab's agent as real processes
(`python -m mca`, the REPL for /memory and /forget) against the grader's fake model
server, which calls the remember tool with texts generated for the run; the memory files
sit in scratch directories, named by MCA_USER_MEMORY and either MCA_PROJECT_MEMORY or the
workspace's default .mca/memory.jsonl. append-only, recall-budget and project-over-user
call MemoryStore.add and recall through harnesses. Every verdict on a file is taken from
its bytes.

append-only (its steps both ways), recall-budget and secret-refused run the lab on a
pseudo-terminal of its own, as the agent runs at a person's terminal; the others use pipes,
so every exercise point is judged both ways.

Every draw holds the cases its check is about: texts in plain English, in one other script
and mixed (CJK, emoji, quotes, backslashes, a newline, U+2028); a torn last line, a record
of another version, a forgotten memory added again, a superseding text and an exact
duplicate; a budget that ends inside a memory with an older short one after it, one that
ends exactly on a memory, one over everything, one under the newest, and none; a conflict
where the user's memory is newer and one where it is older, a losing user memory that
would take the budget; every documented secret shape, password= and MCA_API_KEY's value,
beside near-misses that must be kept; a user and a project memory forgotten, one of them
shadowing the other; a gate with nobody to ask, a deny rule with --yes, an allow rule and
--yes; more memories than the budget holds, for the bill.
"""

from __future__ import annotations

import base64
import json
import re
import uuid

from grader.checkkit import CheckFailed, short
from grader.checkkit.draws import mixed_text, plain_text, script_text

from grader.checkkit.fakeserver import FakeModelServer

from .wire import (memory_model, estimate, everything, first_request, holding, marker, memory_files, run_repl, run_turn,
                   token)

VOICES = (plain_text, script_text, mixed_text)
RECALL_BUDGET = 2000  # the sheet's budget of one session's recall, in characters


def shown(value, limit: int = 300) -> str:
    return short(json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value), limit)


def voiced(rng, n: int, tag: str = "m", words: tuple[int, int] = (3, 8)) -> list[str]:
    """`n` texts, cycling through the three voices, each opening with a marker of its own (so
    no two share a key by accident)."""
    return [f"{marker(rng, tag)} {VOICES[k % 3](rng, words)}".strip() for k in range(n)]


# --------------------------------------------------------------------------- 1

def test_survives_sessions(ctx):
    """What one process is told to remember, a second process starts its new session with, in one system message, from both the user's and the project's file."""
    rng = ctx.rng("survives-sessions")
    ws = ctx.workspace("survives-sessions")
    files = memory_files(ctx, "survives", ws, project_by_env=False)
    user, project = voiced(rng, 3, "u"), voiced(rng, 3, "p")
    texts = [(t, "user") for t in user] + [(t, "project") for t in project]
    rng.shuffle(texts)
    first = run_turn(ctx, ws, files, plain_text(rng), texts=texts)
    ctx.expect_ok(first.result)
    with FakeModelServer(model=memory_model([])) as server:
        second = run_turn(ctx, ws, files, plain_text(rng), args=(), server=server)
        request = first_request(ctx, second)
        # A third process resumes the second session (below): a memory kept in between (by
        # another session) must not reach it.
        later = voiced(rng, 1, "z")[0]
        ctx.expect_ok(run_turn(ctx, ws, files, plain_text(rng), texts=[(later, "user")]).result)
        third = run_turn(ctx, ws, files, plain_text(rng), args=(), sessions=second.sessions, resume=True,
                         server=server)
    wanted = user + project
    carriers = holding(request, wanted)
    if len(carriers) != 1 or carriers[0].get("role") != "system":
        raise CheckFailed(ctx.say("survive.not_one_message", count=len(carriers)),
                          seen=shown(str([m.get("role") for m in carriers]) if carriers else everything(request), 300))
    content = carriers[0]["content"]
    for text in wanted:
        if content.count(text) != 1 or everything(request).count(json.dumps(text, ensure_ascii=False)[1:-1]) != 1:
            raise CheckFailed(ctx.say("survive.missing", text=shown(text, 80)), seen=shown(content, 400))
    # The third process: the recalled message comes back as it was sent, and nothing is recalled again.
    resumed = first_request(ctx, third)
    if resumed.messages[:len(request.messages)] != request.messages:
        raise CheckFailed(ctx.say("survive.resume_differs"), expected=shown(str(request.messages), 200),
                          seen=shown(str(resumed.messages[:len(request.messages)]), 200))
    if later in everything(resumed) or len(holding(resumed, wanted)) != 1:
        raise CheckFailed(ctx.say("survive.recalled_again"), seen=shown(everything(resumed), 300))


# --------------------------------------------------------------------------- 2

APPEND = """
import builtins, io, os, json, base64
from pathlib import Path
from harnesskit import answer, report, run

def main(job):
    path = Path(job["path"])
    target = os.path.realpath(path)
    opened = []
    def mine(file):
        try:
            return isinstance(file, (str, bytes, os.PathLike)) and os.path.realpath(os.fsdecode(file)) == target
        except (TypeError, ValueError):
            return False
    real_open, real_os_open, real_replace, real_rename = builtins.open, os.open, os.replace, os.rename
    def spy_open(file, mode="r", *args, **kwargs):
        if mine(file) and any(c in mode for c in "wx+") :
            opened.append(f"open(mode={mode!r})")
        return real_open(file, mode, *args, **kwargs)
    def spy_os_open(file, flags, *args, **kwargs):
        if mine(file) and flags & (os.O_WRONLY | os.O_RDWR) and (flags & os.O_TRUNC or not flags & os.O_APPEND):
            opened.append(f"os.open(flags={flags})")
        return real_os_open(file, flags, *args, **kwargs)
    def spy_replace(src, dst, *args, **kwargs):
        if mine(dst):
            opened.append("rename onto the file")
        return real_replace(src, dst, *args, **kwargs)
    def spy_rename(src, dst, *args, **kwargs):
        if mine(dst):
            opened.append("rename onto the file")
        return real_rename(src, dst, *args, **kwargs)
    builtins.open = io.open = spy_open
    os.open, os.replace, os.rename = spy_os_open, spy_replace, spy_rename
    from mca.memory.store import MemoryStore
    store = MemoryStore(path, "project")
    steps = []
    for text in job["texts"]:
        before = os.stat(path)
        got = answer(lambda: {"written": store.add(text)[1]})
        if "written" not in got:
            report(got)
            return
        after = os.stat(path)
        steps.append({"written": got["written"], "inode_kept": before.st_ino == after.st_ino,
                      "bytes": base64.b64encode(real_open(path, "rb").read()).decode("ascii")})
    report(steps=steps, opened=opened)

run(main)
"""


def record_line(rng, record: dict) -> str:
    """A record as another writer might have written it: key order, spacing and extra fields
    vary, so a file parsed and dumped again is not byte for byte the same."""
    items = list(record.items()) + [("v", rng.randint(2, 9))] * rng.randint(0, 1)
    rng.shuffle(items)
    sep = rng.choice([(",", ":"), (", ", ": "), (" ,", " : ")])
    return json.dumps(dict(items), ensure_ascii=rng.choice([True, False]), separators=sep)


def key_of(text: str) -> str:
    """The sheet's key of a memory: the text before its first ": " (60 characters at most), else
    the whole text, without case, runs of white space as one."""
    head, found, _ = text.partition(": ")
    if not found or not head.strip() or len(head) > 60:
        head = text
    return " ".join(head.split()).casefold()


def test_append_only(ctx):
    """add() appends one record at the end of the memory file and never rewrites it: the file keeps its inode and every byte it held, and a duplicate writes nothing."""
    rng = ctx.rng("append-only")
    kept, gone, shared = voiced(rng, 3, "k"), voiced(rng, 1, "f")[0], marker(rng, "key")
    old = f"{shared}: {plain_text(rng)}"
    at = 1_700_000_000.0 + rng.randint(0, 10_000_000)
    lines = []
    for text in kept + [gone, old]:
        at += rng.randint(1, 5000) + rng.random()
        lines.append(record_line(rng, {"op": "add", "id": f"m-{token(rng)}", "key": key_of(text), "text": text,
                                       "at": at}))
    gone_key = key_of(gone)
    # the tombstone after the forgotten memory's own record (and before or after the last one)
    lines.insert(rng.randint(len(kept) + 1, len(lines)), record_line(rng, {"op": "forget", "key": gone_key, "at": at + 1}))
    lines.insert(rng.randint(0, len(lines)), json.dumps({"op": "pin", "key": token(rng), "note": mixed_text(rng)},
                                                        ensure_ascii=False))  # a record of a later version
    torn = '{"op": "add", "id": "m-' + token(rng) + '", "key": "' + token(rng)  # a crash mid-write
    before = ("\n".join(lines) + "\n" + torn).encode("utf-8")
    new = voiced(rng, 1, "n")[0]
    superseding = f"{shared}: {script_text(rng)}"
    steps_texts = [new, rng.choice(kept), new, gone, superseding]
    want_written = [True, False, False, True, True]
    # The same steps on a terminal of its own (as the agent runs at a person's terminal) and on
    # pipes (as a script runs it): the file is kept the same way whoever is watching.
    script = ctx.harness("append", APPEND)
    for mode in ("terminal", "pipe"):
        path = ctx.tmp(f"append-only-{mode}") / "memory.jsonl"
        path.write_bytes(before)
        got = ctx.harness_json("append", {"path": str(path), "texts": steps_texts}, calls="MemoryStore.add()",
                               script=script, label=f"append-{mode}", tty=mode == "terminal")
        judge_appends(ctx, before, steps_texts, want_written, got)


def judge_appends(ctx, before: bytes, steps_texts: list[str], want_written: list[bool], got: dict) -> None:
    """Fail at the first step of the harness's answer that did not append exactly what it should."""
    if got.get("opened"):
        raise CheckFailed(ctx.say("append.rewritten", how=", ".join(dict.fromkeys(got["opened"]))),
                          expected=ctx.say("append.only_append"), seen=", ".join(got["opened"]))
    previous = before
    for text, want, step in zip(steps_texts, want_written, got["steps"]):
        data = base64.b64decode(step["bytes"])
        if not step["inode_kept"]:
            raise CheckFailed(ctx.say("append.inode"), expected=ctx.say("append.only_append"), seen=shown(text, 80))
        if not data.startswith(previous):
            raise CheckFailed(ctx.say("append.prefix", text=shown(text, 80)), expected=shown(previous[-200:].decode("utf-8", "replace"), 200),
                              seen=shown(data[-300:].decode("utf-8", "replace"), 300))
        added = data[len(previous):]
        if not want:
            if added or step["written"]:
                raise CheckFailed(ctx.say("append.duplicate_written", text=shown(text, 80)),
                                  seen=shown(added.decode("utf-8", "replace"), 200))
        else:
            records = [r for r in added.split(b"\n") if r.strip()]
            try:
                record = json.loads(records[0]) if len(records) == 1 else None
            except ValueError:
                record = None
            if record is None or record.get("text") != text or not added.endswith(b"\n") or \
                    (previous is before and not added.startswith(b"\n")):
                raise CheckFailed(ctx.say("append.one_record", text=shown(text, 80)),
                                  seen=shown(added.decode("utf-8", "replace"), 300))
        previous = data


# --------------------------------------------------------------------------- 3 and 4

RECALL = """
from harnesskit import answer, report, run

def main(job):
    from mca.memory.recall import recall
    from mca.memory.store import Memory, key_of
    def memories(rows, scope):
        return [Memory(row["id"], key_of(row["text"]), row["text"], row["at"], scope) for row in rows]
    for case in job["cases"]:
        def call():
            got = recall(memories(case["user"], "user"), memories(case["project"], "project"), case["budget"])
            return {"ids": [m.id for m in got.memories], "left_out": got.left_out}
        report(answer(call))

run(main)
"""


def rows(rng, texts: list[str], times: list[float]) -> list[dict]:
    """Memories as live() gives them: newest first."""
    made = [{"id": f"m-{token(rng, 8)}", "text": t, "at": at} for t, at in zip(texts, times)]
    return sorted(made, key=lambda r: r["at"], reverse=True)


def split_scopes(rng, made: list[dict]) -> tuple[list[dict], list[dict]]:
    """Both scopes get memories, their times interleaved (so neither order of the lists is sorted)."""
    ordered = sorted(made, key=lambda r: r["at"], reverse=True)
    user = [r for k, r in enumerate(ordered) if k % 2 == 0]
    project = [r for k, r in enumerate(ordered) if k % 2 == 1]
    return user, project


def run_recall(ctx, cases: list[dict], tty: bool = False) -> list[dict]:
    """recall() on each case, in a harness (`tty`: on a terminal of its own)."""
    answers = ctx.harness_answers("recall", {"cases": cases}, count=len(cases), calls="recall()", code=RECALL,
                                  tty=tty)
    for case, got in zip(cases, answers):
        problem = ctx.harness_problem(got, "recall()", on=f"budget {case['budget']}")
        if problem:
            raise problem
    return answers


def test_recall_budget(ctx):
    """recall() returns the memories newest first, whole ones while the next fits in the budget, stops at the first that does not, and counts what it left out."""
    rng = ctx.rng("recall-budget")
    n = rng.randint(6, 8)
    texts = [f"{marker(rng, 'r')} {script_text(rng, (8, 14))}"]  # the newest: wide characters, so bytes are not chars
    texts += [f"{marker(rng, 'r')} {VOICES[k % 3](rng, (4, 14))}" for k in range(n - 2)]
    texts.append(f"{marker(rng, 'r')}")  # the oldest is short: it would fit where a longer one did not
    times = sorted((1_700_000_000 + rng.randint(0, 10**7) + rng.random() for _ in range(n)), reverse=True)
    made = rows(rng, texts, times)
    user, project = split_scopes(rng, made)
    newest = [r["id"] for r in made]
    lengths = [len(r["text"]) for r in made]
    k = rng.randint(1, n - 3)
    while lengths[k] <= len(made[-1]["text"]) + 1:  # the one that does not fit is longer than the oldest
        made[k]["text"] += " " + plain_text(rng, (3, 6))
        lengths[k] = len(made[k]["text"])
    user, project = split_scopes(rng, made)
    # ends inside memory k, with room left for the short oldest one: a recall that skips k and
    # goes on takes it; one that budgets bytes stops earlier (the newest is in CJK)
    inside = sum(lengths[:k]) + rng.randint(len(made[-1]["text"]), lengths[k] - 1)
    exact = sum(lengths[:k + 1])
    cases = [
        {"user": user, "project": project, "budget": inside, "want": (newest[:k], n - k)},
        {"user": user, "project": project, "budget": exact, "want": (newest[:k + 1], n - k - 1)},
        {"user": user, "project": project, "budget": sum(lengths) + rng.randint(0, 50), "want": (newest, 0)},
        {"user": user, "project": project, "budget": rng.randint(0, lengths[0] - 1), "want": ([], n)},
        {"user": user, "project": project, "budget": None, "want": (newest, 0)},
    ]
    rng.shuffle(cases)
    # on a terminal of its own, as the agent runs at a person's terminal (project-over-user: on pipes)
    answers = run_recall(ctx, [{key: c[key] for key in ("user", "project", "budget")} for c in cases], tty=True)
    by_id = {r["id"]: r["text"] for r in made}
    for case, got in zip(cases, answers):
        ids, left = case["want"]
        if got.get("ids") != ids or got.get("left_out") != left:
            raise CheckFailed(ctx.say("recall.wrong", budget=case["budget"], total=sum(lengths)),
                              expected=f"{[shown(by_id[i], 30) for i in ids]}, left_out {left}",
                              seen=f"{[shown(by_id.get(i, i), 30) for i in got.get('ids') or []]}, "
                                   f"left_out {got.get('left_out')}")


def test_project_over_user(ctx):
    """When the user's file and the project's hold a memory with the same key, recall() keeps the project's, even when the user's is newer, and keeps every memory whose key only one file has."""
    rng = ctx.rng("project-over-user")
    t = iter(sorted((1_700_000_000 + rng.randint(0, 10**7) + rng.random() for _ in range(12)), reverse=True))
    k1, k2 = f"{marker(rng, 'k')} {token(rng)}", f"{marker(rng, 'k')}"
    # user newer than the project on k1 (and long: it would take the budget), older on k2
    user = [{"id": f"m-{token(rng, 8)}", "text": f"{k1.upper().replace(' ', '  ')}: {mixed_text(rng, (20, 30))}", "at": next(t)}]
    project = [{"id": f"m-{token(rng, 8)}", "text": f"{k2}: {plain_text(rng)}", "at": next(t)},
               {"id": f"m-{token(rng, 8)}", "text": f"{k1}: {script_text(rng)}", "at": next(t)}]
    user.append({"id": f"m-{token(rng, 8)}", "text": f"{k2.capitalize()}: {script_text(rng)}", "at": next(t)})
    only_user = [{"id": f"m-{token(rng, 8)}", "text": v, "at": next(t)} for v in voiced(rng, 2, "u")]
    only_project = [{"id": f"m-{token(rng, 8)}", "text": v, "at": next(t)} for v in voiced(rng, 2, "p")]
    user += only_user
    project += only_project
    for group in (user, project):
        rng.shuffle(group)
        group.sort(key=lambda r: r["at"], reverse=True)
    winners = sorted(project + only_user, key=lambda r: r["at"], reverse=True)
    exact = sum(len(r["text"]) for r in winners)
    cases = [{"user": user, "project": project, "budget": None}, {"user": user, "project": project, "budget": exact}]
    answers = run_recall(ctx, cases)
    want = [r["id"] for r in winners]
    texts = {r["id"]: r["text"] for r in user + project}
    for case, got in zip(cases, answers):
        if got.get("ids") != want:
            raise CheckFailed(ctx.say("conflict.wrong", budget=case["budget"]),
                              expected=str([shown(texts[i], 40) for i in want]),
                              seen=str([shown(texts.get(i, i), 40) for i in got.get("ids") or []]))


# --------------------------------------------------------------------------- 5

B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def pick(rng, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def secrets_of(rng, api_key: str) -> list[tuple[str, str]]:
    """(shape, secret): every documented shape, in a variant drawn for this run."""
    b = base64
    header = b.urlsafe_b64encode(json.dumps({"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}).encode()).decode().rstrip("=")
    payload = b.urlsafe_b64encode(json.dumps({"sub": token(rng), "iat": rng.randint(10**9, 2 * 10**9)}).encode()).decode().rstrip("=")
    return [
        ("sk", rng.choice(["sk-", "sk-proj-", "sk-ant-api03-"]) + pick(rng, ALNUM + "_-", rng.randint(24, 48))),
        ("aws", "AKIA" + pick(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
        ("github", rng.choice(["ghp_", "gho_", "ghs_"]) + pick(rng, ALNUM, 36)),
        ("github-pat", "github_pat_" + pick(rng, ALNUM + "_", rng.randint(40, 82))),
        ("slack", rng.choice(["xoxb-", "xoxp-"]) + f"{rng.randint(10**10, 10**12)}-{pick(rng, ALNUM, 24)}"),
        ("jwt", f"{header}.{payload}.{pick(rng, B64URL, 43)}"),
        ("pem", f"-----BEGIN {rng.choice(['RSA ', 'EC ', 'OPENSSH ', ''])}PRIVATE KEY----- MII{pick(rng, ALNUM, 40)}"),
        ("password", rng.choice(["password", "PASSWORD", "Passwd", "pwd"]) + rng.choice(["=", ": ", " = ", ":"])
         + pick(rng, ALNUM + "!#%", rng.randint(6, 14))),
        ("api-key", api_key),
    ]


def near_misses(rng, api_key: str) -> list[str]:
    """Texts close to a secret that are not one: each must be kept."""
    return [
        f"we use sk-learn {rng.choice(['for the model', 'and numpy'])}",
        f"the ticket is sk-{pick(rng, ALNUM, rng.randint(4, 12))}",
        f"AWS key ids start with AKIA, like AKIA{pick(rng, 'ABCDEFGHJK', 8)}",
        f"a GitHub token starts with ghp_ then 36 characters",
        f"release commit {pick(rng, '0123456789abcdef', 40)}",
        f"build id {uuid.UUID(int=rng.getrandbits(128))}",
        f"the password policy needs {rng.randint(10, 16)} characters",
        "the API key is read from MCA_API_KEY",
        "the deploy key is -----BEGIN PUBLIC KEY----- only",
        "a JSON web token starts with eyJ",
    ]


ON_DISK = """
import builtins, io, os
from harnesskit import answer, report, run

def main(job):
    target = os.path.realpath(job["path"])
    secrets = job["secrets"]
    seen, fds = [], set()
    def mine(file):
        try:
            return isinstance(file, (str, bytes, os.PathLike)) and os.path.realpath(os.fsdecode(file)) == target
        except (TypeError, ValueError):
            return False
    def holds(data):
        raw = data.encode("utf-8", "replace") if isinstance(data, str) else bytes(data)
        return any(s.encode("utf-8") in raw for s in secrets)
    real_open, real_os_open, real_write = builtins.open, os.open, os.write
    class Watched:
        def __init__(self, handle):
            self._handle = handle
        def write(self, data):
            if holds(data):
                seen.append("write")
            return self._handle.write(data)
        def writelines(self, lines):
            for line in lines:
                self.write(line)
        def __enter__(self):
            self._handle.__enter__()
            return self
        def __exit__(self, *exc):
            return self._handle.__exit__(*exc)
        def __iter__(self):
            return iter(self._handle)
        def __getattr__(self, name):
            return getattr(self._handle, name)
    def spy_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return Watched(handle) if mine(file) and any(c in mode for c in "wax+") else handle
    def spy_os_open(file, flags, *args, **kwargs):
        fd = real_os_open(file, flags, *args, **kwargs)
        if mine(file):
            fds.add(fd)
        return fd
    def spy_write(fd, data):
        if fd in fds and holds(data):
            seen.append("os.write")
        return real_write(fd, data)
    builtins.open = io.open = spy_open
    os.open, os.write = spy_os_open, spy_write
    from mca.memory.store import MemoryStore
    store = MemoryStore(job["path"], "project", tuple(job["known"]))
    for text in job["texts"]:
        answer(lambda: {"kept": store.add(text)[1]})
    report(seen=seen)

run(main)
"""


def test_secret_refused(ctx):
    """A memory that holds a secret (each documented key shape, a password= and MCA_API_KEY's value) is refused with a reason and never written, while one that only looks close is kept."""
    rng = ctx.rng("secret-refused")
    ws = ctx.workspace("secret-refused")
    files = memory_files(ctx, "secret", ws, project_by_env=rng.choice([True, False]))
    api_key = f"{pick(rng, 'abcdefghijkmnpqrstuvwxyz', 3)}{pick(rng, ALNUM, rng.randint(24, 36))}"
    secrets = secrets_of(rng, api_key)
    refused, kept = [], []
    for k, (shape, secret) in enumerate(secrets):
        words = VOICES[k % 3](rng, (2, 5))
        refused.append((shape, secret, rng.choice([f"{words} {secret}", f"{secret} {words}", f"{words} ({secret}) {words}"])))
    for k, text in enumerate(near_misses(rng, api_key)):
        kept.append(f"{marker(rng, 'n')} {VOICES[k % 3](rng, (1, 3))} {text}")
    labelled = [(("secret", shape, secret), text) for shape, secret, text in refused] + [(("kept",), t) for t in kept]
    rng.shuffle(labelled)
    call_of = {text: f"call_{n}" for n, (_, text) in enumerate(labelled, 1)}
    calls = [(text, rng.choice(["user", "project"])) for _, text in labelled]
    # on a terminal of its own, as a person runs it (the writes watched below run on pipes)
    turn = run_turn(ctx, ws, files, plain_text(rng), texts=calls, api_key=api_key, tty=True)
    ctx.expect_ok(turn.result)
    results = turn.tool_results()
    data = files.read()
    for shape, secret, text in refused:
        for where, content in data.items():
            tail = secret[-12:].encode("utf-8")
            if secret.encode("utf-8") in content or tail in content:
                raise CheckFailed(ctx.say("secret.written", shape=shape, where=where), seen=shown(secret, 80))
        said = results.get(call_of[text], "")
        if not said.startswith("error") or len(said.split()) < 3:
            raise CheckFailed(ctx.say("secret.not_refused", shape=shape), expected=ctx.say("secret.refusal"),
                              seen=shown(said, 200))
    # The file must never hold a secret, not even for the time of a write undone afterwards:
    # every write to it is watched while add() is given each refused text.
    path = ctx.tmp("secret-writes") / "memory.jsonl"
    path.write_bytes(b"")
    watched = ctx.harness_json("on_disk", {"path": str(path), "secrets": [secret for _, secret, _ in refused],
                                           "known": [api_key], "texts": [text for _, _, text in refused]},
                               calls="MemoryStore.add()", code=ON_DISK)
    if watched.get("seen"):
        raise CheckFailed(ctx.say("secret.on_disk", how=", ".join(dict.fromkeys(watched["seen"]))),
                          seen=shown(str(watched["seen"]), 200))
    stored = files.texts()
    for text in kept:
        if text not in stored:
            raise CheckFailed(ctx.say("secret.near_miss", text=shown(text, 100)),
                              seen=shown(results.get(call_of[text], ""), 200))


# --------------------------------------------------------------------------- 6

NUMBERED = re.compile(r"^\s*(\d+)[.)]?\s")


def number_of(output: str, text: str) -> int | None:
    for line in output.splitlines():
        if text in line:
            m = NUMBERED.match(line.replace("you > ", ""))
            if m:
                return int(m.group(1))
    return None


def test_forget_works(ctx):
    """/forget N, for the N that /memory shows beside a memory, keeps that memory out of every later session, by a record appended to its file, and leaves the others in force."""
    rng = ctx.rng("forget-works")
    ws = ctx.workspace("forget-works")
    files = memory_files(ctx, "forget", ws, project_by_env=rng.choice([True, False]))
    shared = marker(rng, "key")
    user_shadowed = f"{shared}: {plain_text(rng)}"  # shadowed by the project's until that one is forgotten
    project_forgotten = f"{shared}: {script_text(rng)}"
    user_forgotten, *others = voiced(rng, 4, "o")
    texts = [(user_shadowed, "user"), (user_forgotten, "user"), (others[0], "user"),
             (others[1], "project"), (others[2], "project")]
    ctx.expect_ok(run_turn(ctx, ws, files, plain_text(rng), texts=texts).result)
    ctx.expect_ok(run_turn(ctx, ws, files, plain_text(rng), texts=[(project_forgotten, "project")]).result)
    before = files.read()
    for target in rng.sample([user_forgotten, project_forgotten], 2):
        listing = run_repl(ctx, ws, files, ["/memory"])
        ctx.expect_ok(listing)
        number = number_of(listing.stdout, target)
        if number is None:
            raise CheckFailed(ctx.say("forget.not_listed", text=shown(target, 80)), seen=shown(listing.stdout, 400))
        after = run_repl(ctx, ws, files, [f"/forget {number}", "/memory"])
        ctx.expect_ok(after)
        parts = after.stdout.split("you > ")
        relisted = parts[2] if len(parts) > 2 else ""
        if target in relisted or not any(text in relisted for text in others):
            raise CheckFailed(ctx.say("forget.still_listed", text=shown(target, 80)), seen=shown(after.stdout, 400))
    now = files.read()
    for where in ("user", "project"):
        if not now[where].startswith(before[where]) or len(now[where]) <= len(before[where]):
            raise CheckFailed(ctx.say("forget.not_appended", where=where),
                              seen=shown(now[where][-300:].decode("utf-8", "replace"), 300))
    turn = run_turn(ctx, ws, files, plain_text(rng), args=())
    request = first_request(ctx, turn)
    sent = "\n".join(str(m.get("content")) for m in holding(request, [user_shadowed] + others))
    for text in (user_forgotten, project_forgotten):
        if text in everything(request) or json.dumps(text, ensure_ascii=False)[1:-1] in everything(request):
            raise CheckFailed(ctx.say("forget.recalled", text=shown(text, 80)), seen=shown(sent, 400))
    for text in [user_shadowed] + others:
        if text not in sent:
            raise CheckFailed(ctx.say("forget.other_lost", text=shown(text, 80)), seen=shown(sent, 400))


# --------------------------------------------------------------------------- 7

def test_remember_gated(ctx):
    """The remember tool passes day 5's gate: with nobody to ask it is refused, a deny rule refuses it even with --yes, --yes or an allow rule lets it write, and a refused call writes nothing."""
    rng = ctx.rng("remember-gated")
    cases = [((), False, "nobody"), (("--yes", "--rule", "deny remember"), False, "deny"),
             (("--rule", "allow remember"), True, "allow"), (("--yes",), True, "yes")]
    rng.shuffle(cases)
    for args, writes, label in cases:
        ws = ctx.workspace("remember-gated")
        files = memory_files(ctx, "gated", ws, project_by_env=rng.choice([True, False]))
        text = voiced(rng, 1, "g")[0]
        scope = rng.choice(["user", "project"])
        turn = run_turn(ctx, ws, files, plain_text(rng), texts=[(text, scope)], args=args)
        ctx.expect_ok(turn.result)
        said = turn.tool_results().get("call_1", "")
        stored = text in files.texts()
        if writes and not stored:
            raise CheckFailed(ctx.say("gate.not_written", how=" ".join(args)), seen=shown(said, 200))
        if not writes and (stored or any(data for data in files.read().values())):
            raise CheckFailed(ctx.say("gate.written", how=" ".join(args) or ctx.say("gate.no_options")),
                              expected=ctx.say("gate.refused"), seen=shown(said, 200))
        if not writes and not said.startswith("denied"):
            raise CheckFailed(ctx.say("gate.not_denied", how=" ".join(args) or ctx.say("gate.no_options")),
                              seen=shown(said, 200))


# --------------------------------------------------------------------------- 8

BILL = re.compile(r"^memory: recalled (\d+) of (\d+), (\d+) chars ≈ (\d+) tokens")


def test_bill_printed(ctx):
    """A session that recalls memories prints `memory: recalled K of N, C chars ≈ T tokens`, C exact and T by day 8's estimate, and logs a recalled event with the same figures before the memory message."""
    rng = ctx.rng("bill-printed")
    ws = ctx.workspace("bill-printed")
    files = memory_files(ctx, "bill", ws, project_by_env=rng.choice([True, False]))
    empty = run_turn(ctx, ws, files, plain_text(rng), args=())
    ctx.expect_ok(empty.result)
    lines = [line for line in empty.result.stderr.splitlines() if line.strip().startswith("memory:")]
    if lines or any(e.get("type") == "recalled" for e in empty.events()) or "[memory" in everything(first_request(ctx, empty)):
        raise CheckFailed(ctx.say("bill.none_expected"), seen=shown(lines[0] if lines else empty.result.stderr, 200))
    texts = []
    while sum(map(len, texts)) <= RECALL_BUDGET + 300:  # more than one session's budget: some are left out
        texts.append(f"{marker(rng, 'b')} {VOICES[len(texts) % 3](rng, (30, 60))} é ж \u07ff \u0800 🙂"[:480])
    ctx.expect_ok(run_turn(ctx, ws, files, plain_text(rng), texts=[(t, rng.choice(["user", "project"])) for t in texts]).result)
    turn = run_turn(ctx, ws, files, plain_text(rng), args=())
    request = first_request(ctx, turn)
    carriers = holding(request, texts)
    if len(carriers) != 1:
        raise CheckFailed(ctx.say("bill.no_message", count=len(carriers)), seen=shown(everything(request), 300))
    content = carriers[0]["content"]
    recalled = sum(1 for t in texts if t in content)
    bills = [m.groups() for m in map(BILL.match, (line.strip() for line in turn.result.stderr.splitlines())) if m]
    want = (str(recalled), str(len(texts)), str(len(content)), str(estimate(content)))
    if bills != [want]:
        raise CheckFailed(ctx.say("bill.line"), expected="memory: recalled {} of {}, {} chars ≈ {} tokens".format(*want),
                          seen=shown("; ".join("memory: recalled {} of {}, {} chars ≈ {} tokens".format(*b) for b in bills)
                                     or turn.result.stderr, 300))
    events = turn.events()
    marks = [e for e in events if e.get("type") == "recalled"]
    holders = [e for e in events if e.get("type") == "message" and isinstance(e.get("message"), dict)
               and e["message"].get("content") == content]
    if len(marks) != 1 or (marks[0].get("chars"), marks[0].get("tokens"), marks[0].get("left_out")) != \
            (len(content), estimate(content), len(texts) - recalled):
        raise CheckFailed(ctx.say("bill.event"), expected=f"chars {len(content)}, tokens {estimate(content)}, "
                          f"left_out {len(texts) - recalled}", seen=shown(str(marks), 300))
    if len(holders) != 1 or not marks[0].get("seq", 0) < holders[0].get("seq", 0):
        raise CheckFailed(ctx.say("bill.event_after"), seen=", ".join(str(e.get("type")) for e in events))
