"""Day 11 checks: the plan the model keeps with the todo tool.

The contract is shared/days/week-2.md, day 11. one-in-progress and forward-only send
updates to the todo tool through a harness (the tool as the registry runs it, on a fresh
TodoList) and read the list after each one. shown-on-change, reminder-after-n, plan-resumed
and reminder-accounted run the lab's agent as real processes (`python -m mca`, the REPL for
several turns and /plan, `--resume` in a second process) against the grader's fake model
server, whose scripted model calls todo with the whole list, reads workspace files for idle
rounds and answers; the checks read the screen, the session log and every request.

Every draw holds the cases its check is about: plan steps in plain English, in one other
script and mixed; a first update with two items in progress, a second item set in progress
beside the first, a new item in progress beside an old one, three at once, the mark handed
from one item to the next in one update, none in progress; done to pending, done to in
progress (the other mark moved on in the same update), in progress to pending, pending to
done in one step, a new item, an update that changes nothing, an item moved back right after
it was done; for the reminder an idle stretch before any plan, one longer than N (one
reminder, not two), one shorter than N, one exactly N across a turn's end, a finished list
idle for longer than N; for resume a refused update after the last accepted one.

one-in-progress, reminder-after-n and plan-resumed's second process run the lab on a
pseudo-terminal of its own (the REPL's lines typed at its prompts), as a person at a terminal
runs it; the others, and plan-resumed's first and third processes, on pipes: every exercise
point is judged both ways.
"""

from __future__ import annotations

import re

from grader.checkkit import CheckFailed, short
from grader.checkkit.draws import plain_text
from grader.checkkit.turns import estimate, run_turn, text_of, token

from .wire import (MARKS, PLAN_LINE, REMIND_AFTER, Step, dumps, expected_reminders, plan_block_at, server_for,
                   step_texts)


def shown(value, limit: int = 300) -> str:
    return short(value if isinstance(value, str) else dumps(value), limit)


# --------------------------------------------------------------------------- the harness

TODO = """
from pathlib import Path
from harnesskit import answer, report, run

def main(job):
    from mca.plan import TodoList
    from mca.tools.registry import default_tools
    plan = TodoList()
    tools = default_tools(Path(job["workdir"]), plan=plan)
    ids = {}
    for step in job["steps"]:
        items = []
        for spec in step:
            item = {"content": spec["content"], "status": spec["status"]}
            if spec["known"]:
                item = {"id": spec.get("id") or ids.get(spec["key"], "?"), **item}
            items.append(item)
        got = answer(lambda: {"result": tools.run("todo", {"items": items})})
        if "result" not in got:
            report(got)
            continue
        result = got["result"]
        state = [[str(i.id), i.content, i.status] for i in plan.items]
        if result.ok:
            by_content = {content: item_id for item_id, content, _ in state}
            for spec in step:
                if spec["content"] in by_content:
                    ids[spec["key"]] = by_content[spec["content"]]
        report(ok=result.ok, said=result.content, state=state)

run(main)
"""


class Plan:
    """The check's own account of the list: (key, content, status) in order, and the rules."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts  # key -> content
        self.items: list[tuple[int, str]] = []  # (key, status)

    def spec(self, changes: dict[int, str] | None = None, new: list[tuple[int, str]] = (), rng=None,
             shuffle: bool = False) -> list[dict]:
        """The whole list as it stands with `changes` (key -> status), then `new` items (each at a
        random place, with `rng`); `shuffle`: the list sent in another order."""
        changes = changes or {}
        out = [{"key": k, "content": self.texts[k], "status": changes.get(k, s), "known": True} for k, s in self.items]
        if shuffle:
            moved = list(out)
            while len(out) > 1 and moved == out:
                rng.shuffle(moved)
            out = moved
        for k, s in new:
            spec = {"key": k, "content": self.texts[k], "status": s, "known": False}
            out.insert(rng.randint(0, len(out)) if rng else len(out), spec)
        return out

    def key(self, status: str, rng, but: tuple = ()) -> int:
        return rng.choice([k for k, s in self.items if s == status and k not in but])


RANK = {"pending": 0, "in_progress": 1, "done": 2}


def verdict(plan: Plan, step: list[dict]) -> tuple[bool, int | None, str]:
    """Whether the reference takes `step`, the key of the item a refusal must name, and why
    (the catalogue key of a refusal the lab did not make)."""
    old = dict(plan.items)
    for spec in step:
        if spec.get("id"):
            return False, None, "unknown_accepted"  # an id the list does not have
    sent = {spec["key"] for spec in step if spec["known"]}
    for key, _ in plan.items:
        if key not in sent:
            return False, None, "left_out_accepted"  # the whole list each time (naming it is not required)
    for spec in step:
        if spec["known"] and RANK[spec["status"]] < RANK[old[spec["key"]]]:
            return False, spec["key"], "accepted"
    working = [spec["key"] for spec in step if spec["status"] == "in_progress"]
    if len(working) > 1:
        return False, None, "accepted"
    return True, None, ""


def names_item(said: str, content: str, item_id: str | None) -> bool:
    if content in said or content[:24] in said:
        return True
    if item_id:
        return re.search(rf"(?:item|id|#|step)\s*['\"]?{re.escape(item_id)}(?![\w])", said, re.IGNORECASE) is not None \
            or f"'{item_id}'" in said or f'"{item_id}"' in said
    return False


def judge_updates(ctx, texts: list[str], steps: list[list[dict]], answers: list[dict], section: str,
                  name_needed: bool) -> None:
    """Replay the check's account alongside the lab's answers and fail at the first difference."""
    plan = Plan(texts)
    ids: dict[int, str] = {}
    ever: set[str] = set()
    state: list = []
    for n, (step, got) in enumerate(zip(steps, answers), 1):
        problem = ctx.harness_problem(got, "the todo tool (TodoList.update)", on=shown(step_view(step), 200))
        if problem:
            raise problem
        accept, culprit, why = verdict(plan, step)
        sent = shown(step_view(step), 300)
        if not accept:
            if got.get("ok") or not str(got.get("said", "")).startswith("error"):
                key = f"{section}.accepted" if why == "accepted" else f"forward.{why}"
                raise CheckFailed(ctx.say(key, n=n), expected=ctx.say("plan.refused"),
                                  seen=sent)
            if got.get("state") != state:
                raise CheckFailed(ctx.say("plan.changed_on_refusal", n=n), expected=shown(state, 300),
                                  seen=shown(got.get("state"), 300))
            if name_needed and culprit is not None and \
                    not names_item(str(got.get("said", "")), texts[culprit], ids.get(culprit)):
                raise CheckFailed(ctx.say("forward.not_named", n=n, item=shown(texts[culprit], 80)),
                                  seen=shown(got.get("said", ""), 300))
            continue
        if not got.get("ok"):
            raise CheckFailed(ctx.say(f"{section}.refused", n=n), expected=sent, seen=shown(got.get("said", ""), 300))
        want = [[spec["content"], spec["status"]] for spec in step]
        have = [[content, status] for _, content, status in got.get("state") or []]
        if have != want:
            raise CheckFailed(ctx.say("plan.not_as_sent", n=n), expected=shown(want, 300), seen=shown(have, 300))
        new_ids = [str(item_id) for item_id, _, _ in got["state"]]
        if len(set(new_ids)) != len(new_ids):
            raise CheckFailed(ctx.say("plan.ids_twice", n=n), seen=shown(got["state"], 300))
        for spec, item_id in zip(step, new_ids):
            if spec["known"] and ids.get(spec["key"]) != item_id:
                raise CheckFailed(ctx.say("plan.id_changed", n=n, item=shown(spec["content"], 80)),
                                  expected=str(ids.get(spec["key"])), seen=item_id)
            if not spec["known"] and item_id in ever:
                raise CheckFailed(ctx.say("plan.id_reused", n=n, item=shown(spec["content"], 80)),
                                  seen=shown(got["state"], 300))
        for spec, item_id in zip(step, new_ids):
            ids[spec["key"]] = item_id
            ever.add(item_id)
        plan.items = [(spec["key"], spec["status"]) for spec in step]
        state = got["state"]


def step_view(step: list[dict]) -> list[str]:
    return [f"{'#' if s['known'] else '+'} {s['content']} = {s['status']}" for s in step]


# --------------------------------------------------------------------------- 1

def test_one_in_progress(ctx):
    """The todo tool refuses a list with more than one item in progress as an error that keeps the old list, and takes one that hands the in-progress mark from one item to the next."""
    rng = ctx.rng("one-in-progress")
    n = rng.randint(3, 6)
    texts = step_texts(rng, n + 3)
    plan = Plan(texts)
    steps = []

    def add(step):
        steps.append(step)
        accept, _, _ = verdict(plan, step)
        if accept:
            plan.items = [(s["key"], s["status"]) for s in step]

    first = ["in_progress"] + ["pending"] * (n - 1)
    two = list(first)
    two[rng.randint(1, n - 1)] = "in_progress"
    add(plan.spec(new=list(zip(range(n), two))))                     # two at once, on an empty list
    order = list(range(n))
    add(plan.spec(new=[(k, s) for k, s in zip(order, first)]))      # one: taken
    working = plan.key("in_progress", rng)
    add(plan.spec({plan.key("pending", rng): "in_progress"}))       # a second beside the first
    add(plan.spec(new=[(n, "in_progress")]))                        # a new one beside an old one
    nxt = plan.key("pending", rng)
    add(plan.spec({working: "done", nxt: "in_progress"}))           # the mark handed on: taken
    others = [k for k, s in plan.items if s == "pending"]
    add(plan.spec({k: "in_progress" for k in others[:2]}))          # three at once
    add(plan.spec({nxt: "done"}))                                   # none in progress: taken
    add(plan.spec(new=[(n + 1, "in_progress"), (n + 2, "in_progress")]))  # two new ones
    add(plan.spec(new=[(n + 1, "in_progress")]))                    # one new one: taken
    # on a terminal of its own, as the agent runs at a person's terminal (forward-only: on pipes)
    answers = ctx.harness_answers("todo", {"workdir": str(ctx.workspace("one-in-progress")), "steps": steps},
                                  count=len(steps), calls="the todo tool (TodoList.update)", code=TODO, tty=True)
    judge_updates(ctx, texts, steps, answers, "one", name_needed=False)


# --------------------------------------------------------------------------- 2

def test_forward_only(ctx):
    """A todo call that moves an item back (done to pending or in progress, in progress to pending) is a tool error naming that item, the list stays as it was, and forward moves and new items are taken with every id kept."""
    rng = ctx.rng("forward-only")
    n = rng.randint(4, 7)
    texts = step_texts(rng, n + 2)
    statuses = ["done", "in_progress", "pending", "pending"] + [rng.choice(["pending", "done"]) for _ in range(n - 4)]
    rng.shuffle(statuses)
    plan = Plan(texts)
    steps = []

    def add(step):
        steps.append(step)
        accept, _, _ = verdict(plan, step)
        if accept:
            plan.items = [(s["key"], s["status"]) for s in step]

    add(plan.spec(new=list(zip(range(n), statuses))))                       # any status for a new item
    add(plan.spec({plan.key("done", rng): "pending"}))                      # done -> pending
    skipped = plan.key("pending", rng)
    add(plan.spec({skipped: "done"}))                                       # pending -> done: taken
    add(plan.spec({plan.key("in_progress", rng): "pending"}))               # in progress -> pending
    working = plan.key("in_progress", rng)
    nxt = plan.key("pending", rng)
    add(plan.spec({working: "done", nxt: "in_progress"}, new=[(n, "pending")]))  # forward, and a new item
    add(plan.spec({plan.key("done", rng, but=(working,)): "in_progress", nxt: "done"}))  # done -> in progress
    add(plan.spec())                                                        # nothing changes: taken
    add(plan.spec(rng=rng, shuffle=True))                                   # another order: ids go along
    left = plan.spec()
    del left[rng.choice([k for k, spec in enumerate(left) if spec["status"] != "done"])]
    add(left)                                                               # an open item left out
    unknown = plan.spec()
    unknown.insert(rng.randint(0, len(unknown)), {"key": n + 1, "content": texts[n + 1], "status": "pending",
                                                  "known": True, "id": str(rng.randint(60, 99))})
    add(unknown)                                                            # an id the list does not have
    add(plan.spec({working: rng.choice(["pending", "in_progress"]), nxt: "done"}))  # just done, moved back
    add(plan.spec({nxt: "done"}, new=[(n + 1, rng.choice(["pending", "in_progress"]))], rng=rng))  # taken
    answers = ctx.harness_answers("todo", {"workdir": str(ctx.workspace("forward-only")), "steps": steps},
                                  count=len(steps), calls="the todo tool (TodoList.update)", code=TODO)
    judge_updates(ctx, texts, steps, answers, "forward", name_needed=True)


# --------------------------------------------------------------------------- runs of the agent

def workspace_files(rng, count: int = 4) -> dict[str, str]:
    names = rng.sample(["notes.md", "calc.py", "todo.txt", "src/app.py", "docs/plan.md", "README.md", "data.csv"], count)
    return {name: "\n".join(plain_text(rng, (4, 12)) for _ in range(rng.randint(2, 8))) + "\n" for name in names}


def idle(rng, files: dict[str, str]) -> Step:
    return Step("read", path=rng.choice(sorted(files)), text=rng.choice(["", plain_text(rng, (2, 6))]))


def todo_step(plan_now: list[tuple[str, str]], known: set[str]) -> Step:
    return Step("todo", items=[(content, status, content in known) for content, status in plan_now])


def log_of(turn) -> list[dict]:
    return turn.log_events()


# --------------------------------------------------------------------------- 3

def test_shown_on_change(ctx):
    """After every accepted todo call the whole list is shown on screen, each item with its mark and text in order, and logged as a plan event holding the same items."""
    rng = ctx.rng("shown-on-change")
    files = workspace_files(rng)
    n = rng.randint(3, 5)
    texts = step_texts(rng, n + 1)
    first = [(texts[0], "in_progress")] + [(t, "pending") for t in texts[1:n]]
    second = [(texts[0], "done"), (texts[1], "in_progress")] + [(t, "pending") for t in texts[2:n]] + [(texts[n], "pending")]
    working = rng.randint(2, len(second) - 1)
    third = [(c, "done") if k < 2 else (c, "in_progress") if k == working else (c, s) for k, (c, s) in enumerate(second)]
    lists = [first, second, third, [(c, "done") for c, _ in third]]
    steps, known = [], set()
    for k, items in enumerate(lists):
        steps.append(todo_step(items, known))
        known |= {c for c, _ in items}
        for _ in range(rng.randint(0, 1) if k < len(lists) - 1 else 0):
            steps.append(idle(rng, files))
    steps.append(Step("text", text=plain_text(rng, (4, 20))))
    with server_for(steps, token(rng)) as server:
        turn = run_turn(ctx, "shown-on-change", plain_text(rng, (4, 14)), files, server=server)
    ctx.expect_ok(turn.result)
    lines = turn.said.splitlines()
    at = 0
    for k, items in enumerate(lists, 1):
        found = plan_block_at(lines, at, items)
        if found is None:
            raise CheckFailed(ctx.say("shown.not_shown", n=k),
                              expected="\n".join(f"{MARKS[s]} … {c}" for c, s in items),
                              seen=shown("\n".join(lines[at:at + 12]), 500))
        at = found
    plans = [e for e in log_of(turn) if e.get("type") == "plan"]
    if len(plans) != len(lists):
        raise CheckFailed(ctx.say("shown.events", want=len(lists), got=len(plans)),
                          seen=", ".join(str(e.get("type")) for e in log_of(turn)))
    for k, (event, items) in enumerate(zip(plans, lists), 1):
        logged = event.get("items")
        got = [(i.get("content"), i.get("status")) for i in logged] if isinstance(logged, list) and \
            all(isinstance(i, dict) for i in logged) else None
        if got != [tuple(i) for i in items] or any(not str(i.get("id") or "") for i in logged):
            raise CheckFailed(ctx.say("shown.event_items", n=k), expected=shown(items, 300), seen=shown(logged, 300))


# --------------------------------------------------------------------------- 4

def reminder_script(rng, files: dict[str, str]) -> list[Step]:
    """The steps of one session: idle before any plan, a stretch longer than N, one shorter, one of
    exactly N across a turn's end, a finished list left idle. A text reply ends a turn: some idle
    reads are turned into texts (an idle round as well), so no turn runs more than 8 rounds."""
    n_items = rng.randint(3, 5)
    texts = step_texts(rng, n_items + 1)
    steps: list[Step] = []
    ends: set[int] = set()  # steps that must be texts
    known: set[str] = set()

    def todo(items):
        steps.append(todo_step(items, known))
        known.update(c for c, _ in items)

    def idles(count):
        for _ in range(count):
            steps.append(idle(rng, files))

    idles(REMIND_AFTER + rng.randint(1, 2))                                  # no plan yet
    plan = [(texts[0], "in_progress")] + [(t, "pending") for t in texts[1:n_items]]
    todo(plan)
    idles(2 * REMIND_AFTER + rng.randint(1, 2))                              # once, not twice
    plan = [(texts[0], "done"), (texts[1], "in_progress")] + plan[2:]
    todo(plan)
    idles(rng.randint(0, REMIND_AFTER - 1))                                  # too short
    plan = plan + [(texts[n_items], "pending")]
    todo(plan)
    ends.add(len(steps) + rng.randint(0, REMIND_AFTER - 2))                  # exactly N, a turn ending inside
    idles(REMIND_AFTER + rng.randint(0, 2))
    todo([(c, "done") for c, _ in plan])                                      # finished
    idles(REMIND_AFTER + rng.randint(1, 3))
    run, limit = 0, rng.randint(3, 5)
    for k, step in enumerate(steps):
        run += 1
        if step.kind == "read" and (k in ends or run >= limit):
            step.kind, step.text = "text", plain_text(rng, (3, 16))
            run, limit = 0, rng.randint(3, 5)
    steps.append(Step("text", text=plain_text(rng, (3, 16))))
    return steps


def new_messages(before: list, after: list) -> list | None:
    if after[:len(before)] != before:
        return None
    return after[len(before):]


def injected_in(requests, typed: list[str]) -> list[list[dict]]:
    """For each request: the messages it adds that are neither the model's last reply, a tool
    result, nor a line the user typed (for the first request: none)."""
    out = [[]]
    for prev, nxt in zip(requests, requests[1:]):
        added = new_messages(prev.messages, nxt.messages)
        if added is None:
            return out + [None]
        out.append([m for m in added if isinstance(m, dict) and m.get("role") not in ("assistant", "tool")
                    and not (m.get("role") == "user" and text_of(m.get("content")) in typed)])
    return out


def run_script(ctx, name: str, rng, steps: list[Step], files: dict[str, str], tty: bool = False):
    """The REPL, one typed line per turn of `steps` (`tty`: on a terminal, each typed at its prompt)."""
    typed = [plain_text(rng, (2, 12)) for _ in range(sum(1 for s in steps if s.kind == "text"))]
    with server_for(steps, token(rng)) as server:
        turn = run_turn(ctx, name, None, files, server=server, typed="".join(t + "\n" for t in typed) + "/exit\n",
                        tty=tty)
    ctx.expect_ok(turn.result)
    return turn, typed


def test_reminder_after_n(ctx):
    """After 3 rounds in a row without a todo call, while the list has an open item, the next request carries one reminder, once per idle stretch, and none while the list is empty or all done."""
    rng = ctx.rng("reminder-after-n")
    files = workspace_files(rng)
    steps = reminder_script(rng, files)
    # on a terminal of its own, as a person types (reminder-accounted: on pipes)
    turn, typed = run_script(ctx, "reminder-after-n", rng, steps, files, tty=True)
    if len(turn.requests) != len(steps):
        raise CheckFailed(ctx.say("remind.requests", want=len(steps), got=len(turn.requests)),
                          seen=ctx.evidence(turn.result))
    want = expected_reminders(steps)
    got = injected_in(turn.requests, typed)
    for k, (should, extra) in enumerate(zip(want, got)):
        if extra is None:
            raise CheckFailed(ctx.say("remind.rewritten", n=k + 1))
        story = describe_rounds(ctx, steps, k)
        if should and len(extra) != 1:
            raise CheckFailed(ctx.say("remind.missing" if not extra else "remind.several", n=k + 1, story=story),
                              seen=shown(extra, 300) if extra else None)
        if not should and extra:
            raise CheckFailed(ctx.say("remind.unexpected", n=k + 1, story=story), seen=shown(extra, 300))


def describe_rounds(ctx, steps: list[Step], k: int) -> str:
    """What came before request k, in the catalogue's words."""
    last = max((i for i in range(k) if steps[i].kind == "todo"), default=None)
    if last is None:
        return ctx.say("remind.story_none", rounds=k)
    state = ctx.say("remind.open" if any(s != "done" for _, s, _ in steps[last].items) else "remind.closed")
    return ctx.say("remind.story", idle=k - last - 1, at=last + 1, state=state)


# --------------------------------------------------------------------------- 5

def resume_script(rng, texts: list[str]) -> tuple[list[Step], list[tuple[str, str]]]:
    n = len(texts)
    first = [(texts[0], "in_progress")] + [(t, "pending") for t in texts[1:n]]
    # a pending item before the one in progress: a plan rebuilt "fresh" (the first open item set
    # in progress) differs from the one logged
    second = [(texts[0], "done"), (texts[1], "pending"), (texts[2], "in_progress")] + \
        [(t, rng.choice(["pending", "done"])) for t in texts[3:n]]
    refused = [(c, "in_progress" if s == "pending" else s) for c, s in second]  # two or more in progress
    if sum(1 for _, s in refused if s == "in_progress") < 2:
        refused[0] = (refused[0][0], "in_progress")  # done -> in progress: back, refused either way
    known = {c for c, _ in first}
    steps = [todo_step(first, set()), Step("text", text=plain_text(rng, (3, 10))),
             todo_step(second, known), todo_step(refused, known), Step("text", text=plain_text(rng, (3, 10)))]
    return steps, second


def shown_plan(stdout: str, which: int) -> list[tuple[str, str, str]] | None:
    """The `which`-th /plan listing of the REPL's output: (mark, id, content) per item line."""
    parts = stdout.split("you > ")
    if len(parts) <= which:
        return None
    return [m.groups() for m in map(PLAN_LINE.match, parts[which].splitlines()) if m]


def test_plan_resumed(ctx):
    """A session resumed in a new process has the plan its log last recorded: /plan shows it, and the todo tool goes on from it with the same ids."""
    rng = ctx.rng("plan-resumed")
    files = workspace_files(rng)
    texts = step_texts(rng, rng.randint(4, 6) + 1)
    steps, _ = resume_script(rng, texts[:-1])
    before = len(steps)
    typed = [plain_text(rng, (2, 10)), plain_text(rng, (2, 10))]
    with server_for(steps, token(rng)) as server:
        first = run_turn(ctx, "plan-resumed", None, files, server=server,
                         typed="".join(t + "\n" for t in typed) + "/exit\n")
        ctx.expect_ok(first.result)
        plans = [e for e in first.log_events() if e.get("type") == "plan"]
        if not plans or not isinstance(plans[-1].get("items"), list):
            raise CheckFailed(ctx.say("resume.no_plan_event"),
                              seen=", ".join(str(e.get("type")) for e in first.log_events()))
        last = [(str(i.get("id")), str(i.get("content")), str(i.get("status"))) for i in plans[-1]["items"]
                if isinstance(i, dict)]
        # The second process: /plan, a turn whose todo call goes on from the plan (an item moved
        # forward, a new one at the end), /plan again. The model's script grows by these steps.
        moved = next((k for k, (_, _, s) in enumerate(last) if s == "pending"), None)
        extra = texts[-1]
        going_on = [(c, "done" if k == moved else s) for k, (_, c, s) in enumerate(last)]
        steps += [Step("todo", items=[(c, s, True) for c, s in going_on] + [(extra, "pending", False)]),
                  Step("text", text=plain_text(rng, (3, 10)))]
        # on a terminal of its own, as a person resumes (the third process below: on pipes)
        second = run_turn(ctx, "plan-resumed", None, workspace=first.workspace, sessions=first.sessions,
                          resume=True, server=server, typed=f"/plan\n{plain_text(rng, (2, 10))}\n/plan\n/exit\n",
                          tty=True)
        ctx.expect_ok(second.result)
        # A third process, on pipes: /plan shows what the second one left.
        third = run_turn(ctx, "plan-resumed", None, workspace=first.workspace, sessions=first.sessions,
                         resume=True, server=server, typed="/plan\n/exit\n")
    want = [(CHAR[s], i, c) for i, c, s in last]
    listed = shown_plan(second.printed, 1)
    if listed != want:
        raise CheckFailed(ctx.say("resume.not_listed"), expected=listing(want),
                          seen=shown(listing(listed) if listed else second.printed, 500))
    said = ""
    for request in second.requests:
        for m in request.messages:
            if isinstance(m, dict) and m.get("role") == "tool" and str(m.get("tool_call_id", "")).endswith(f"_{before + 1}"):
                said = text_of(m.get("content"))
    if not said or said.startswith("error"):
        raise CheckFailed(ctx.say("resume.refused"), seen=shown(said or ctx.evidence(second.result), 300))
    after = shown_plan(second.printed, 3) or []
    wanted = [(CHAR[s], i, c) for (i, c, _), (_, s) in zip(last, going_on)]
    old_ids = {i for i, _, _ in last}
    if after[:len(wanted)] != wanted or len(after) != len(wanted) + 1 or after[-1][2] != extra \
            or after[-1][0] != " " or after[-1][1] in old_ids:
        raise CheckFailed(ctx.say("resume.not_going_on"), expected=listing(wanted) + f"\n[ ] (a new id). {extra}",
                          seen=shown(listing(after) if after else second.printed, 500))
    ctx.expect_ok(third.result)
    again = shown_plan(third.printed, 1)
    if again != after:
        raise CheckFailed(ctx.say("resume.not_listed"), expected=listing(after),
                          seen=shown(listing(again) if again else third.printed, 500))


CHAR = {"pending": " ", "in_progress": ">", "done": "x"}


def listing(items) -> str:
    return "\n".join(f"[{m}] {i}. {c}" for m, i, c in items)


# --------------------------------------------------------------------------- 6

def bill_lines(said: str, chars: int, tokens: int) -> tuple[list[str], list[str]]:
    """The lines about a reminder, and those of them that state its characters and tokens
    (`C chars`, `T tokens`: the sheet's line is `injected: plan reminder (K of N items open) C chars
    ≈ T tokens`; another wording that says what, the characters and the tokens is a bill too)."""
    about = [line.strip() for line in said.splitlines() if re.search(r"reminder", line, re.IGNORECASE)
             and re.search(r"\d+\s*(?:chars?|characters)\b", line)]
    right = [line for line in about if re.search(rf"(?<![\d.]){chars}\s*(?:chars?|characters)\b", line)
             and re.search(rf"(?<![\d.]){tokens}\s*tokens?\b", line)]
    return about, right


def test_reminder_accounted(ctx):
    """Each reminder prints `injected: plan reminder (K of N items open) C chars ≈ T tokens` and logs a reminded event with the same figures before its message, and a resumed session sends that reminder exactly as it was sent."""
    rng = ctx.rng("reminder-accounted")
    files = workspace_files(rng)
    texts = step_texts(rng, rng.randint(3, 6))
    statuses = ["in_progress"] + [rng.choice(["pending", "done"]) for _ in texts[1:]]
    items = list(zip(texts, statuses))
    steps = [todo_step(items, set())] + [idle(rng, files) for _ in range(REMIND_AFTER + rng.randint(1, 2))] + \
        [Step("text", text=plain_text(rng, (3, 12)))]
    k = REMIND_AFTER + 1  # the request after the todo round and N idle ones carries it
    with server_for(steps + [Step("text", text=plain_text(rng, (3, 12)))], token(rng)) as server:
        first = run_turn(ctx, "reminder-accounted", plain_text(rng, (3, 14)), files, server=server)
        ctx.expect_ok(first.result)
        if len(first.requests) <= k:
            raise CheckFailed(ctx.say("account.requests"), seen=ctx.evidence(first.result))
        extra = injected_in(first.requests, [])
        added = [m for m in (extra[k] or []) if not (m.get("role") == "user")]
        if len(added) != 1 or not isinstance(added[0].get("content"), str):
            raise CheckFailed(ctx.say("account.no_reminder", n=k + 1), seen=shown(extra[k], 300))
        content = added[0]["content"]
        open_items = sum(1 for s in statuses if s != "done")
        about, right = bill_lines(first.said, len(content), estimate(content))
        if len(about) != 1 or len(right) != 1:
            raise CheckFailed(ctx.say("account.bill"),
                              expected=f"injected: plan reminder ({open_items} of {len(items)} items open) "
                                       f"{len(content)} chars ≈ {estimate(content)} tokens",
                              seen=shown("; ".join(about) or first.said[-400:], 400))
        events = first.log_events()
        marks = [e for e in events if e.get("type") == "reminded"]
        holders = [e for e in events if e.get("type") == "message" and isinstance(e.get("message"), dict)
                   and e["message"].get("content") == content]
        if len(marks) != 1 or (marks[0].get("chars"), marks[0].get("tokens"), marks[0].get("open"),
                               marks[0].get("items")) != (len(content), estimate(content), open_items, len(items)):
            raise CheckFailed(ctx.say("account.event"),
                              expected=f"chars {len(content)}, tokens {estimate(content)}, open {open_items}, "
                                       f"items {len(items)}", seen=shown(marks, 300))
        if len(holders) != 1 or not marks[0].get("seq", 0) < holders[0].get("seq", 0):
            raise CheckFailed(ctx.say("account.event_after"), seen=", ".join(str(e.get("type")) for e in events))
        prompt = plain_text(rng, (2, 10))
        second = run_turn(ctx, "reminder-accounted", prompt, workspace=first.workspace, sessions=first.sessions,
                          resume=True, server=server)
    ctx.expect_ok(second.result)
    if not second.requests:
        raise CheckFailed(ctx.say("account.no_resumed_request"), seen=ctx.evidence(second.result))
    last = first.requests[-1].messages
    sent = second.requests[0].messages
    head = sent[:len(last)]
    if head != last:
        raise CheckFailed(ctx.say("account.resumed_differs"), expected=shown(last, 300), seen=shown(head, 300))
    rest = sent[len(last):]
    if dumps(rest).count("plan reminder") or [m for m in rest if isinstance(m, dict) and m.get("role") not in ("assistant", "user")]:
        raise CheckFailed(ctx.say("account.reminded_again"), seen=shown(rest, 300))
