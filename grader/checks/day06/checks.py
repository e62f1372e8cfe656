"""Day 06 checks: errors fed back, transient failures retried (and only those), Ctrl-C, hard caps.

The contract is shared/days/day-06.md. How the checks get their inputs:

* every check but the harness parts runs the lab's agent against the grader's model
  server (talk.py), which answers from a script drawn for this run: error statuses
  with generated bodies (CJK, emoji, a proxy's HTML page), Retry-After in seconds and
  as an HTTP date, tool calls on files the check created with random names and
  contents. The server records when each request arrived and the history it carried;
* where the lab retries (transient-retried, retry-after-honoured, backoff-grows-capped)
  the agent runs through harnesses/clock.py: `python -m mca` as a person runs it, with
  `time.sleep` noting each pause asked for and returning at once. The pauses are judged
  as the agent asked for them, between one request's arrival and the next, so no
  wall time is judged and nothing waits; the other checks run the agent as it is;
* not-retried, retry-after-honoured and backoff-grows-capped also ask the lab's
  should_retry and backoff_delay directly (harnesses/retry.py): every status from
  400 to 599, many draws of every attempt, Retry-After values drawn per run;
* cancel-keeps-repl and no-dangling-call share one REPL run (the `cancelled`
  fixture): a real SIGINT while run_command is running, then one more turn.

Every draw holds the cases the checks are about (none is left to a seed): the cancelled
command writes a heartbeat line every 0.1 s until it is stopped, so a command left running
shows as a file that still grows once the prompt is back; the call the loop guard must
block is a grep whose one match (a line of a file the check wrote) is in its result when it
runs, so "not run" is judged by what the result holds, and its wording is free; the same
call comes a 3rd and a 4th time, once with its keys the other way round, beside near twins.

Student code runs only in children. Failure wording lives in messages.toml.
"""

from __future__ import annotations

import json
import re
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest

from grader.checkkit import CheckFailed, ChildTimeout, wait_until
from grader.checkkit.chain import valid_chain
from grader.checkkit.context import TURN_TIMEOUT
from grader.checkkit.draws import ASCII_WORDS
from grader.checkkit.fakeserver import FakeModelServer, SSEStream, http_date, reply_stream
from grader.checkkit.interrupts import interruptible
from grader.spawn import ChildResult

from .talk import (SERVER_ERRORS, TRANSIENT_4XX, asked_pauses, call_id, calls_reply, chats, described, error_lines,
                   error_reply, file_name, file_text, finished_lines, ms, model_name, text_reply, tool_results, words)

RETRIES = 3                 # the lab's RETRIES: extra attempts after the first failure
MAX_ROUNDS = 8              # the lab's MAX_ROUNDS
BACKOFF_SECONDS, BACKOFF_CAP, RETRY_AFTER_CAP = 0.5, 8.0, 120.0
DRAWS = 12                  # draws of backoff_delay per attempt
JITTER_SPREAD = 0.04        # the draws, as shares of their nominal pause, must spread at least this far
PROMPT = "you > "
STEP = 15                   # seconds for one step of a REPL (a prompt, a reply)
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}
# A result that reads as a failure to the model, in any words: "error: ...", "read_file failed: ...",
# "FileNotFoundError: ...", "cannot decode ..." (the kit's own results start with `error:`).
FAILURE = re.compile(r"\berror\b|\bfail(?:ed|ure|s)?\b|\w+(?:Error|Exception)\b|\bcannot\b|\bcould not\b|"
                     r"\bcan't\b|\bunable\b|\bno such\b|\bnot found\b", re.IGNORECASE)
CANCEL_WORDS = re.compile(r"cancel|interrupt|abort|stopp?ed by the user", re.IGNORECASE)
# A blocked call's result says why, in any words: a loop, a repeat, a call made before, the guard.
GUARD_REASON = re.compile(r"block|loop|guard|repeat|again|already|same (?:call|tool|arguments)|\d+ times|twice|"
                          r"more than|too many|stuck", re.IGNORECASE)


def nominal(attempt: int) -> float:
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP)


def _failed_child(ctx, key: str, result: ChildResult, **values) -> CheckFailed:
    return CheckFailed(ctx.say(key, command=result.short_command(), status=result.returncode, **values),
                       seen=ctx.evidence(result))


def _one_shot(ctx, name: str, script, *args: str, model=None):
    """`python -m mca [ARGS] PROMPT` against a server playing `script`; (result, chat requests)."""
    rng = ctx.rng(name + "/prompt")
    with FakeModelServer(script, model=model) as server:
        result = ctx.run_agent(*args, words(rng), cwd=ctx.workspace(name), mock=False,
                               extra_env=server.env(model=model_name(ctx, name)))
        requests = chats(server.requests)
    if "Traceback" in result.stderr:
        raise _failed_child(ctx, "agent.crashed", result)
    return result, requests


def _on_clock(ctx, name: str, script, *args: str, model=None):
    """The same run through harnesses/clock.py: (result, chat requests, the pause the agent
    asked for between each request and the next, in seconds)."""
    rng = ctx.rng(name + "/prompt")
    clock = ctx.harness("clock")
    notes = clock.parent / "pauses.jsonl"
    with FakeModelServer(script, model=model) as server:
        result = ctx.run_harness(clock, str(notes), *args, words(rng), cwd=ctx.workspace(name), mock=False,
                                 timeout=TURN_TIMEOUT, extra_env=server.env(model=model_name(ctx, name)))
        requests = chats(server.requests)
    if "Traceback" in result.stderr:
        raise _failed_child(ctx, "agent.crashed", result)
    return result, requests, asked_pauses(notes, requests)


@dataclass
class Asked:
    """One run of harnesses/retry.py for the three checks that ask the functions directly."""

    statuses: list
    after: list
    backoff: list
    answer: dict | None = None
    problem: CheckFailed | None = None

    def part(self, say, name: str, cases: list) -> list:
        if self.problem is not None:
            raise self.problem
        found = (self.answer or {}).get(name) or []
        if len(found) != len(cases):
            raise CheckFailed(say("harness.incomplete"), seen=str(self.answer)[:300])
        return found


@pytest.fixture(scope="module")
def asked(ctx) -> Asked:
    """should_retry on every status 400-599 (and without one), backoff_delay on drawn Retry-After
    values and on 12 draws of every attempt 0-10 (in a shuffled order), in one child."""
    rng = ctx.rng("asked")
    statuses = [[status, False] for status in range(400, 600)] + [[None, True], [None, False]]
    after = [[0, round(rng.uniform(0.6, 7.9), 2)], [rng.randint(0, 3), round(rng.uniform(8.5, 119), 1)],
             [rng.randint(0, 3), rng.randint(121, 7200)]]
    after = [[a, max(r, nominal(a) * 1.1) if r < RETRY_AFTER_CAP else r] for a, r in after]
    backoff = [[a, None] for a in range(11) for _ in range(DRAWS)]
    rng.shuffle(backoff)
    run = Asked(statuses, after, backoff)
    job = {"statuses": statuses, "delays": after + backoff}
    try:
        answer = ctx.harness_json("retry", job, calls=ctx.say("harness.functions"), label="job")
    except CheckFailed as problem:
        run.problem = problem
        return run
    delays = answer.get("delays") or []
    run.answer = {"retry": answer.get("retry") or [], "after": delays[:len(after)],
                  "backoff": delays[len(after):] if len(delays) == len(after) + len(backoff) else []}
    # The same backoff draws in another process, as another client that failed at the same
    # moment: a "random" that is a fixed cycle or a constant seed gives it the same pauses.
    try:  # only backoff-grows-capped reads these: a second child that died fails that check alone
        other = ctx.harness_json("retry", {"statuses": [], "delays": backoff}, calls=ctx.say("harness.functions"),
                                 label="job-elsewhere")
        delays = other.get("delays") or []
    except CheckFailed:
        delays = []
    run.answer["elsewhere"] = delays if len(delays) == len(backoff) else []
    return run


def _broken(ctx, answer, what: str) -> None:
    problem = ctx.harness_problem(answer, what) if isinstance(answer, dict) else None
    if problem:
        raise problem


# --------------------------------------------------------------------------- E5: errors are information

def test_tool_error_fed_back(ctx):
    """Tools that raise inside their own code (a missing file, a binary file, a path under a file) each give the model a result that reads as an error (in any words: `error: ...`, `... failed: ...`, an exception's name) and says what went wrong, shown as failed."""
    say, rng = ctx.say, ctx.rng("tool-error-fed-back")
    model = model_name(ctx, "tool-error-fed-back")
    ws = ctx.workspace("tool-error-fed-back")
    good, binary, missing = file_name(rng, ".txt"), file_name(rng, ".dat"), file_name(rng, ".py")
    content = file_text(rng)
    (ws / good).write_text(content, encoding="utf-8")
    (ws / binary).write_bytes(bytes([0xFF, *(rng.randrange(256) for _ in range(rng.randint(8, 40)))]))
    under = f"{good}/{rng.choice(ASCII_WORDS)}.txt"
    failing = [  # (tool, args, what it runs into, pieces of text of which the error must contain one)
        ("read_file", {"path": missing}, say("what.reading_missing", path=missing), (missing,)),
        ("edit_file", {"path": binary, "old": "a", "new": "b"}, say("what.editing_binary", path=binary),
         ("decode", "Decode", "utf-8", "UTF-8")),
        ("write_file", {"path": under, "content": words(rng)}, say("what.writing_under_file", path=under), (good,)),
    ]
    calls = [(call_id(rng), name, args) for name, args, _, _ in failing] + [(call_id(rng), "list_dir", {"path": "."})]
    rng.shuffle(calls)
    fix_id, answer = call_id(rng), words(rng)
    script = [calls_reply(rng, model, words(rng), calls),
              calls_reply(rng, model, words(rng), [(fix_id, "read_file", {"path": good})]),
              text_reply(rng, model, answer)]
    with FakeModelServer(script) as server:
        result = ctx.run_agent("--yes", words(rng), cwd=ws, mock=False, extra_env=server.env(model=model))
        requests = chats(server.requests)
    if len(requests) < 2:
        raise _failed_child(ctx, "fed.no_next_request", result)
    results = tool_results(requests[1].messages)
    outcomes = finished_lines(result.stderr)
    by_id = {cid: (name, args) for cid, name, args in calls}
    for name, args, what, pieces in failing:
        cid = next(c for c, (n, a) in by_id.items() if n == name and a == args)
        got = results.get(cid)
        call = described(name, args)
        if not isinstance(got, str):
            raise CheckFailed(say("fed.no_result", call=call), seen=json.dumps(list(results), ensure_ascii=False))
        if not FAILURE.search(got):
            raise CheckFailed(say("fed.not_error", what=what, call=call), expected=say("brief.error_why"),
                              seen=repr(got[:200]))
        if not any(piece in got for piece in pieces):
            raise CheckFailed(say("fed.unnamed", what=what, piece=pieces[0]),
                              expected=say("brief.result_naming", text=repr(pieces[0])), seen=repr(got[:200]))
        if (name, "failed") not in outcomes:
            shown = [f"{tool} {outcome}" for tool, outcome in outcomes if tool == name]
            raise CheckFailed(say("fed.shown_ok", what=what, tool=name), expected=f"<- {name} failed",
                              seen=", ".join(shown) or say("brief.no_line"))
    listing = results.get(next(c for c, (n, _) in by_id.items() if n == "list_dir"))
    if not isinstance(listing, str) or good not in listing.split("\n"):
        raise CheckFailed(say("fed.listing_wrong", name=good), seen=repr(str(listing)[:200]))
    if len(requests) < 3 or tool_results(requests[2].messages).get(fix_id) != content:
        seen = tool_results(requests[2].messages).get(fix_id) if len(requests) >= 3 else None
        raise CheckFailed(say("fed.no_correction", name=good), expected=repr(content),
                          seen=repr(seen) if seen is not None else ctx.evidence(result))
    if result.returncode != 0 or result.stdout.rstrip("\n").split("\n")[-1] != answer:
        raise CheckFailed(say("fed.no_answer", status=result.returncode), expected=answer,
                          seen=ctx.evidence(result) if result.returncode else repr(result.stdout[-200:]))


# --------------------------------------------------------------------------- retries

def _transient_statuses(rng, count: int) -> list[int]:
    """`count` transient statuses: always one of 408/409/429 and one 5xx, in random order."""
    picked = [rng.choice(TRANSIENT_4XX), rng.choice(SERVER_ERRORS)]
    picked += [rng.choice(TRANSIENT_4XX + SERVER_ERRORS) for _ in range(count - 2)]
    rng.shuffle(picked)
    return picked


def test_transient_retried(ctx):
    """The server answers with transient statuses (drawn from 408, 409, 429 and 5xx) two or three times, then with a reply: as many requests plus one, each with the same history, one reply on stdout and exit 0."""
    say, rng = ctx.say, ctx.rng("transient-retried")
    model = model_name(ctx, "transient-retried")
    statuses = _transient_statuses(rng, rng.choice((2, 3)))
    answer = words(rng)
    script = [error_reply(rng, status) for status in statuses] + [text_reply(rng, model, answer)]
    result, requests, _ = _on_clock(ctx, "transient-retried", script)
    seq = ", ".join(map(str, statuses)) + ", 200"
    if len(requests) != len(statuses) + 1:
        raise CheckFailed(say("transient.count", statuses=seq, count=len(requests), expected=len(statuses) + 1),
                          seen=ctx.evidence(result))
    bodies = {json.dumps(r.json, sort_keys=True) for r in requests}
    if len(bodies) != 1:
        raise CheckFailed(say("transient.history_changed"),
                          seen=" | ".join(say("brief.messages", count=len(r.messages)) for r in requests))
    if result.returncode != 0 or result.stdout != answer + "\n":
        raise CheckFailed(say("transient.no_reply", statuses=seq, status=result.returncode), expected=repr(answer),
                          seen=ctx.evidence(result) if result.returncode else repr(result.stdout[-200:]))
    first = words(rng)  # a reply that breaks after its first words: a retry would print a second reply after them
    broken = reply_stream(SSEStream(model).role().text(first).drop())
    result, requests, _ = _on_clock(ctx, "transient-retried-broken", [broken, text_reply(rng, model, words(rng))])
    if len(requests) != 1 or result.returncode != 1 or not result.stdout.startswith(first):
        raise CheckFailed(say("transient.retried_mid_stream", count=len(requests), status=result.returncode),
                          expected=say("brief.gave_up_at_once"),
                          seen=say("brief.requests", count=len(requests)) + "; " + ctx.evidence(result))


def _retryable(status, transient) -> bool:
    if status is None:
        return transient
    return status in TRANSIENT_4XX or status >= 500


def _sweep(ctx, asked: Asked) -> None:
    """should_retry over every status 400-599 and both kinds of failure without a status."""
    cases = asked.statuses
    retried = asked.part(ctx.say, "retry", cases)
    wrong_yes, wrong_no = [], []
    for (status, transient), said in zip(cases, retried):
        _broken(ctx, said, ctx.say("what.should_retry", case=status or ctx.say(
            "what.lost_connection" if transient else "what.bad_answer")))
        label = str(status) if status else ctx.say("what.lost_connection" if transient else "what.not_a_completion")
        if said != _retryable(status, transient):
            (wrong_yes if said else wrong_no).append(label)
    if wrong_yes:
        raise CheckFailed(ctx.say("sweep.retries", statuses=", ".join(wrong_yes[:8]), count=len(wrong_yes)),
                          expected=ctx.say("brief.no_retry_for"),
                          seen=ctx.say("brief.retried", statuses=", ".join(wrong_yes[:8])))
    if wrong_no:
        raise CheckFailed(ctx.say("sweep.gives_up", statuses=", ".join(wrong_no[:8]), count=len(wrong_no)),
                          expected=ctx.say("brief.retry_for"),
                          seen=ctx.say("brief.not_retried", statuses=", ".join(wrong_no[:8])))


def test_not_retried(ctx, asked):
    """A 401, and a 400, 403 or 404, each get exactly one request, one error line naming the status and exit 1."""
    say, rng = ctx.say, ctx.rng("not-retried")
    model = model_name(ctx, "not-retried")
    statuses = (401, rng.choice((400, 403, 404)))
    scripts = [[error_reply(rng, status)] + [text_reply(rng, model, words(rng)) for _ in range(RETRIES)]
               for status in statuses]
    with ThreadPoolExecutor(len(statuses)) as pool:  # two children at once: each mostly waits
        runs = list(pool.map(lambda job: _one_shot(ctx, f"not-retried-{job[0]}", job[1]),
                             zip(statuses, scripts)))
    for status, (result, requests) in zip(statuses, runs):
        if len(requests) != 1:
            raise CheckFailed(say("refused.retried", status=status, count=len(requests)),
                              expected=say("brief.one_request"),
                              seen=say("brief.requests", count=len(requests)) + "; " + ctx.evidence(result))
        errors = [message for where, message in error_lines(result.stderr) if where == "gateway"]
        if len(errors) != 1 or str(status) not in errors[0]:
            raise CheckFailed(say("refused.line", status=status, count=len(errors)),
                              expected=say("brief.one_line", line=f"error (gateway): ... {status} ..."),
                              seen=" | ".join(errors) or ctx.evidence(result))
        if result.returncode != 1:
            raise CheckFailed(say("refused.status", status=status, code=result.returncode),
                              expected=say("brief.exit_status", code=1),
                              seen=ctx.evidence(result))
    _sweep(ctx, asked)


def _expect_pause(ctx, gap: float, least: float, most: float, what: str, asked: str) -> None:
    if gap < least:
        raise CheckFailed(ctx.say("after.too_soon", what=what, asked=asked),
                          expected=ctx.say("brief.at_least", value=ms(least)),
                          seen=ms(gap))
    if gap > most:
        raise CheckFailed(ctx.say("after.too_late", what=what, asked=asked),
                          expected=ctx.say("brief.at_most", value=ms(most)),
                          seen=ms(gap))


def test_retry_after_honoured(ctx, asked):
    """After a plain 503, a 429 and a 503 carrying Retry-After (seconds, or an HTTP date, both longer than the usual pause) are each retried no sooner than asked and not much later."""
    say, rng = ctx.say, ctx.rng("retry-after-honoured")
    model = model_name(ctx, "retry-after-honoured")
    seconds, date = rng.choice((3, 4, 5)), rng.choice((3, 4))  # whole seconds: what HTTP allows
    first, second = rng.sample((429, 503), 2)
    forms = {first: ("seconds", seconds), second: ("date", date)}
    answer = words(rng)
    plain = error_reply(rng, 503)
    replies = iter([
        lambda: plain,
        lambda: error_reply(rng, first, _after(forms[first])),
        lambda: error_reply(rng, second, _after(forms[second])),
        lambda: text_reply(rng, model, answer),
    ])
    # The date is written when the request arrives, as a server would: "retry at 12:00:03".
    result, requests, pauses = _on_clock(ctx, "retry-after-honoured", [],
                                         model=lambda request: next(replies, lambda: text_reply(rng, model, answer))())
    if len(requests) != 4 or result.returncode != 0:
        raise CheckFailed(say("after.count", first=first, second=second, count=len(requests),
                              status=result.returncode), seen=ctx.evidence(result))
    plain_gap, *paused = pauses
    for gap, status in zip(paused, (first, second)):
        form, value = forms[status]
        header = (f"Retry-After: {value:g}" if form == "seconds"
                  else say("brief.date_header", seconds=value))
        # The pause asked for, not the time taken: exact below; a date is whole seconds, rounded up when written,
        # and a moment old when the agent reads it; a little more than asked is fine.
        least = value - (0.25 if form == "date" else 0.0) - 1e-6
        most = (value + (1 if form == "date" else 0)) * 1.25 + 1e-6
        _expect_pause(ctx, gap, least, most, say("what.status_with", status=status, header=header),
                      say("brief.plain_waited", header=header, gap=ms(plain_gap)))
    cases = asked.after
    for (attempt, value), delay in zip(cases, asked.part(say, "after", cases)):
        _broken(ctx, delay, f"backoff_delay({attempt}, {value:g})")
        want = min(value, RETRY_AFTER_CAP)
        ceiling = RETRY_AFTER_CAP if value >= RETRY_AFTER_CAP else want * 1.25
        if not want - 1e-6 <= delay <= ceiling + 1e-6:
            key = "after.capped" if value >= RETRY_AFTER_CAP else "after.direct"
            raise CheckFailed(say(key, attempt=attempt, value=f"{value:g}"),
                              expected=f"{want:g}" if value >= RETRY_AFTER_CAP
                              else say("brief.range", low=f"{want:g}", high=f"{ceiling:g}"),
                              seen=f"{delay:g}")


def _after(form: tuple[str, float]) -> dict[str, str]:
    kind, value = form
    return {"Retry-After": f"{value:g}" if kind == "seconds" else http_date(value)}


def _failing_run(ctx, name: str, rng, model: str) -> list[float]:
    """Five transient failures in a row; the pauses asked for between the requests (judged for count and lower
    bounds)."""
    say = ctx.say
    statuses = [rng.choice((500, 502, 503, 504)) for _ in range(5)]
    script = [error_reply(rng, status) for status in statuses] + [text_reply(rng, model, words(rng))]
    result, requests, pauses = _on_clock(ctx, name, script)
    if len(requests) != RETRIES + 1:
        raise CheckFailed(say("backoff.count", count=len(requests), expected=RETRIES + 1),
                          seen=ctx.evidence(result))
    errors = error_lines(result.stderr)
    if result.returncode != 1 or not errors or "trying again" in errors[-1][1]:
        raise CheckFailed(say("backoff.no_end", status=result.returncode), seen=ctx.evidence(result))
    for n, gap in enumerate(pauses):
        least = 0.5 * nominal(n) - 1e-6
        if gap < least:
            raise CheckFailed(say("backoff.too_short", n=n + 1, nominal=f"{nominal(n):g}"),
                              expected=say("brief.at_least", value=ms(least)), seen=ms(gap))
    return pauses


def test_backoff_grows_capped(ctx, asked):
    """Five transient failures in a row: 1 + 3 retries and no more, each pause asked for at least half of 0.5 s x 2^n, the last longer than the first."""
    say, rng = ctx.say, ctx.rng("backoff-grows-capped")
    model = model_name(ctx, "backoff-grows-capped")
    cases, attempts = asked.backoff, range(11)
    delays = asked.part(say, "backoff", cases)
    seen: dict[int, list[float]] = {a: [] for a in attempts}
    for (attempt, _), delay in zip(cases, delays):
        _broken(ctx, delay, f"backoff_delay({attempt})")
        seen[attempt].append(delay)
    for attempt in attempts:
        top = nominal(attempt)
        low, high = min(seen[attempt]), max(seen[attempt])
        if low < top / 2 - 1e-9 or high > top + 1e-9:
            key = "backoff.over_cap" if high > BACKOFF_CAP + 1e-9 else "backoff.band"
            raise CheckFailed(say(key, attempt=attempt, top=f"{top:g}", half=f"{top / 2:g}"),
                              expected=say("brief.range_s", low=f"{top / 2:g}", high=f"{top:g}"),
                              seen=say("brief.range_s", low=f"{low:g}", high=f"{high:g}"))
        if high - low < 1e-9:
            raise CheckFailed(say("backoff.no_jitter", attempt=attempt, draws=DRAWS), seen=say("brief.every_time", value=f"{low:g}"))
    # Jitter is there to keep clients apart: a factor drawn from a sliver (x0.999-1) leaves them in step to the
    # millisecond. Over all 132 draws any jitter of 5 % or more spans this spread; none of 4 % or less can.
    shares = [delay / nominal(attempt) for (attempt, _), delay in zip(cases, delays)]
    spread = max(shares) - min(shares)
    if spread < JITTER_SPREAD:
        raise CheckFailed(say("backoff.thin_jitter", draws=len(shares), spread=f"{spread * 100:.2g}",
                              least=f"{JITTER_SPREAD * 100:g}"),
                          expected=say("brief.share_spread", least=f"{JITTER_SPREAD * 100:g}"),
                          seen=say("brief.shares", low=f"{min(shares):.4g}", high=f"{max(shares):.4g}"))
    # Two processes asked for the same attempts in the same order are two clients: in step if
    # they draw the same pauses (a cycle of factors, a generator seeded with a constant).
    elsewhere = asked.part(say, "elsewhere", cases)
    for delay in elsewhere:
        _broken(ctx, delay, "backoff_delay")
    same = sum(a == b for a, b in zip(delays, elsewhere))
    if same * 2 > len(delays):
        raise CheckFailed(say("backoff.in_step", draws=len(delays), same=same),
                          expected=say("brief.apart"), seen=say("brief.same_pauses", same=same, draws=len(delays)))
    pauses = _failing_run(ctx, "backoff-grows-capped", rng, model)
    if pauses[-1] <= pauses[0]:  # the pauses asked for: the load of the machine does not enter them
        raise CheckFailed(say("backoff.flat"), expected=say("brief.grows"), seen=", ".join(ms(g) for g in pauses))


# --------------------------------------------------------------------------- E3: Ctrl-C

@dataclass
class Cancelled:
    """One REPL run: a turn whose run_command gets a real SIGINT, then one more turn."""

    said: list[str]
    calls: list[tuple[str, str, dict]]
    slow: int                      # index of the call that was running
    quick: dict[str, str]          # call id -> its real result, for the calls that finished
    answer: str                    # the reply to the second line
    requests: list = field(default_factory=list)
    result: ChildResult | None = None
    stage: str = "start"           # how far it got: start, asked, running, prompt, answered
    beats: tuple[int, int, float] | None = None  # the command's heartbeat file: bytes then, bytes later, seconds


def _prompts(child) -> int:
    return child.stdout_so_far().count(PROMPT)


@pytest.fixture(scope="module")
def cancelled(ctx) -> Cancelled:
    rng = ctx.rng("cancel")
    model = model_name(ctx, "ctrl-c")  # a model named "...cancel..." would say the word on every model: line
    ws = ctx.workspace("cancel")
    name, content = file_name(rng, ".txt"), file_text(rng)
    (ws / name).write_text(content, encoding="utf-8")
    marker = f"started-{rng.getrandbits(32):08x}"
    beat = f"beat-{rng.getrandbits(32):08x}.log"
    before = [(call_id(rng), "read_file", {"path": name})]
    after = [(call_id(rng), rng.choice(("list_dir", "grep")), {})]
    after[0][2].update({"path": "."} if after[0][1] == "list_dir" else {"pattern": rng.choice(ASCII_WORDS)})
    if rng.random() < 0.5:
        before.append((call_id(rng), "grep", {"pattern": f"zq{rng.getrandbits(24):06x}", "path": "."}))
    # It beats every 0.1 s until stopped (bounded: 30 s), so the check sees whether the cancel stopped it.
    slow = (call_id(rng), "run_command", {"command": f"touch {marker}; i=0; while [ $i -lt 300 ]; do "
                                                     f"echo $i >> {beat}; i=$((i+1)); sleep 0.1; done"})
    calls = before + [slow] + after
    quick = {cid: (content if tool == "read_file" else "no matches") for cid, tool, _ in before}
    run = Cancelled([words(rng), words(rng)], calls, len(before), quick, words(rng))
    script = [calls_reply(rng, model, words(rng), calls), text_reply(rng, model, run.answer)]
    with FakeModelServer(script) as server:
        env = server.env(model=model)
        with interruptible():  # the REPL must feel Ctrl-C even when the grader runs in the background
            child = ctx.start_agent("--yes", cwd=ws, extra_env=env, mock=False)
        with child:
            try:
                _cancel(ctx, child, ws / marker, ws / beat, run)
            finally:
                child.close_stdin()
                try:
                    run.result = child.wait(10)
                except ChildTimeout as exc:
                    run.result = exc.result
        run.requests = chats(server.requests)
    return run


def _size(path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _cancel(ctx, child, marker, beat, run: Cancelled) -> None:
    def step(done, seconds=STEP) -> bool:
        wait_until(lambda: done() or not child.running(), ctx.scaled(seconds))
        return done()

    if not step(lambda: _prompts(child) >= 1):
        return
    child.send(run.said[0] + "\n")
    run.stage = "asked"
    if not step(marker.exists):
        return
    run.stage = "running"
    time.sleep(0.05)  # the shell goes on from touch to sleep; the agent is waiting on it either way
    child.signal(signal.SIGINT)
    if not step(lambda: _prompts(child) >= 2, 2 * STEP):  # a loaded machine may take its time
        return
    run.stage = "prompt"
    time.sleep(ctx.scaled(0.3))  # the prompt is back: whatever stopped the command has stopped it by now
    then, window = _size(beat), ctx.scaled(1.5)
    time.sleep(window)  # a command still running beats about 15 times in this window
    run.beats = (then, _size(beat), window)
    child.send(run.said[1] + "\n")
    if step(lambda: _prompts(child) >= 3):
        run.stage = "answered"


def test_cancel_keeps_repl(ctx, cancelled):
    """Ctrl-C (a real SIGINT) while run_command runs: a line says the turn was cancelled, the command it was running is stopped (its heartbeat file stops growing once the prompt is back), the REPL prompt comes back, the next line gets its reply, and the end of input exits 0."""
    say, run = ctx.say, cancelled
    result = run.result
    if run.stage in ("start", "asked"):
        key = "cancel.no_start" if run.stage == "start" else "cancel.tool_never_ran"
        raise _failed_child(ctx, key, result)
    if run.stage == "running":
        if result.returncode is not None:  # it ended by itself (a REPL still waiting is killed: no status)
            raise _failed_child(ctx, "cancel.repl_ended", result)
        raise _failed_child(ctx, "cancel.no_prompt", result)
    after = result.stderr.split("-> run_command", 1)[-1].split("\n")[1:]  # what it said once the command ran
    if not any(CANCEL_WORDS.search(line) for line in after):
        raise CheckFailed(say("cancel.not_said"),
                          expected=say("brief.line_such_as", line="error (loop): cancelled by the user"),
                          seen=" | ".join(result.stderr.strip().split("\n")[-4:]))
    if run.beats and run.beats[1] > run.beats[0]:
        raise CheckFailed(say("cancel.still_running", seconds=round(run.beats[2], 1)),
                          expected=say("brief.command_stopped"),
                          seen=say("brief.beat_grew", before=run.beats[0], after=run.beats[1]))
    if run.stage != "answered" or run.answer not in result.stdout.split(PROMPT)[2]:
        raise CheckFailed(say("cancel.next_turn"), expected=run.answer,
                          seen=repr(result.stdout.split(PROMPT)[2][:200]) if result.stdout.count(PROMPT) > 2
                          else ctx.evidence(result))
    if result.returncode != 0:
        raise _failed_child(ctx, "cancel.eof", result)


def test_no_dangling_call(ctx, cancelled):
    """After the cancel, the next request is a valid chain that keeps the cancelled turn: every call of it answered once, the finished ones with their real results, the running and the unstarted ones with a result saying they were cancelled."""
    say, run = ctx.say, cancelled
    if len(run.requests) < 2:
        raise CheckFailed(say("dangling.no_request", stage=run.stage), seen=ctx.evidence(run.result))
    messages = run.requests[1].messages
    problem = valid_chain(messages)
    if problem:
        raise CheckFailed(say("dangling.invalid", problem=problem),
                          seen=" ".join(f"{m.get('role')}" for m in messages if isinstance(m, dict)))
    asked = [i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"
             and m.get("content") == run.said[0]]
    ids = [cid for cid, _, _ in run.calls]
    holder = next((m for m in messages[asked[0] + 1:] if m.get("role") == "assistant"), None) if asked else None
    kept = [c.get("id") for c in (holder or {}).get("tool_calls") or []]
    if not asked or kept != ids:
        raise CheckFailed(say("dangling.turn_dropped"), expected=say("brief.first_then_calls", ids=ids),
                          seen=say("brief.calls", ids=kept) if asked else say("brief.first_missing"))
    answers = [m for m in messages if isinstance(m, dict) and m.get("role") == "tool"
               and m.get("tool_call_id") in ids]
    counted = {cid: sum(m.get("tool_call_id") == cid for m in answers) for cid in ids}
    if any(n != 1 for n in counted.values()):
        raise CheckFailed(say("dangling.count"), expected=say("brief.one_per_call"), seen=json.dumps(counted))
    results = tool_results(messages)
    for index, (cid, name, args) in enumerate(run.calls):
        content = results[cid]
        if cid in run.quick:
            if content != run.quick[cid]:
                raise CheckFailed(say("dangling.finished_lost", call=described(name, args)),
                                  expected=repr(run.quick[cid][:120]), seen=repr(str(content)[:120]))
        elif not isinstance(content, str) or not CANCEL_WORDS.search(content):
            key = "dangling.running_unsaid" if index == run.slow else "dangling.unstarted_unsaid"
            raise CheckFailed(say(key, call=described(name, args)), expected=say("brief.cancelled_result"),
                              seen=repr(str(content)[:200]))
    if messages[-1].get("content") != run.said[1]:
        raise CheckFailed(say("dangling.second_line"), seen=repr(str(messages[-1].get("content"))[:120]))


# --------------------------------------------------------------------------- caps

def _guard_plan(rng, files: dict[str, str], pattern: str, hit: str):
    """Turn 1 and turn 2 of the loop-guard conversation: replies of calls, and what each call must give
    (for the repeated grep, whose one match is the line `hit`: None, "holds `hit`, as its first run did")."""
    (one, one_text), (two, two_text) = files.items()
    grep = ("grep", {"pattern": pattern, "path": "."})
    grep_turned = ("grep", {"path": ".", "pattern": pattern})  # the same call, its keys the other way round
    read_one, read_two, list_one = ("read_file", {"path": one}), ("read_file", {"path": two}), \
        ("list_dir", {"path": one})
    outputs = {described(*read_one): one_text, described(*read_two): two_text,
               described(*list_one): f"error: {one} is not a directory"}
    # Near twins that a key losing part of the call would count as one: the same values under swapped names
    # (each made twice, so a values-only key reaches a third), and another pattern on the same path.
    swap_one, swap_two = ("grep", {"pattern": one, "path": two}), ("grep", {"pattern": two, "path": one})
    other = ("grep", {"pattern": f"zq{rng.getrandbits(32):08x}x", "path": "."})
    repeats = [grep, grep_turned] if rng.random() < 0.5 else [grep_turned, grep]
    swaps = [swap_one, swap_two] if rng.random() < 0.5 else [swap_two, swap_one]
    turn1 = [[grep, read_one, swaps[0]], [list_one, repeats[0], swaps[1]], [read_two, repeats[1], swaps[0], other],
             [grep, read_one, swaps[1]]]
    for reply in turn1:
        rng.shuffle(reply)
    turn2 = [[grep]]
    plan, counts = [], {}
    for turn, replies in ((1, turn1), (2, turn2)):
        counts.clear()
        for reply in replies:
            planned = []
            for name, args in reply:
                key = name + json.dumps(args, sort_keys=True)
                counts[key] = counts.get(key, 0) + 1
                expect = (None if args.get("pattern") == pattern else "no matches") if name == "grep" \
                    else outputs[described(name, args)]
                planned.append((call_id(rng), name, args, ORDINAL[counts[key]], counts[key] > 2, expect, turn))
            plan.append(planned)
    return plan, len(turn1)


def test_loop_guard(ctx):
    """The same call (same tool, same arguments in any key order) made a third and a fourth time in a turn is blocked: the tool is not run (its result lacks what the tool finds), the result is not ok and tells the model why, and the turn goes on."""
    say, rng = ctx.say, ctx.rng("loop-guard")
    model = model_name(ctx, "loop-guard")
    ws = ctx.workspace("loop-guard")
    files = {file_name(rng, ".txt"): file_text(rng) for _ in range(2)}
    while len(files) < 2:
        files[file_name(rng, ".md")] = file_text(rng)
    for name, text in files.items():
        (ws / name).write_text(text, encoding="utf-8")
    pattern = f"zq{rng.getrandbits(32):08x}"
    hit = f"{words(rng)} {pattern} {words(rng)}"  # what the repeated grep finds when it runs
    hit_file = file_name(rng, ".md")
    while hit_file in files:
        hit_file = file_name(rng, ".md")
    (ws / hit_file).write_text(f"{file_text(rng).rstrip()}\n{hit}\n", encoding="utf-8")
    plan, first_turn = _guard_plan(rng, files, pattern, hit)
    answers = [words(rng), words(rng)]
    script = [calls_reply(rng, model, words(rng), [(c[0], c[1], c[2]) for c in reply]) for reply in plan[:first_turn]]
    script.append(text_reply(rng, model, answers[0]))
    script += [calls_reply(rng, model, words(rng), [(c[0], c[1], c[2]) for c in reply]) for reply in plan[first_turn:]]
    script.append(text_reply(rng, model, answers[1]))
    said = [words(rng), words(rng)]
    with FakeModelServer(script) as server:
        result = ctx.run_agent(cwd=ws, input="\n".join(said) + "\n", mock=False,
                               extra_env=server.env(model=model))
        requests = chats(server.requests)
    if "Traceback" in result.stderr or result.returncode != 0:
        raise _failed_child(ctx, "guard.failed", result)
    if len(requests) != len(script):
        raise CheckFailed(say("guard.rounds", count=len(requests), expected=len(script)), seen=ctx.evidence(result))
    results = tool_results(requests[-1].messages)
    ordered = [c for reply in plan for c in reply]
    # The screen's `<- NAME ok|failed|blocked ...` line of each call, in order: whether its result was ok.
    outcomes = re.findall(r"^\s*<- (\w+) (ok|failed|blocked)\b", result.stderr, re.MULTILINE)
    paired = len(outcomes) == len(ordered) and all(o[0] == c[1] for o, c in zip(outcomes, ordered))
    for index, (cid, name, args, count, blocked, expect, turn) in enumerate(ordered):
        content = results.get(cid)
        call = described(name, args)
        state = outcomes[index][1] if paired else None
        if not isinstance(content, str):
            raise CheckFailed(say("guard.no_result", call=call, turn=turn))
        ran = hit in content if expect is None else content == expect
        if blocked:
            if ran:
                raise CheckFailed(say("guard.not_blocked", call=call, count=count, turn=turn),
                                  expected=say("brief.not_run"), seen=repr(content[:160]))
            if state == "ok":
                raise CheckFailed(say("guard.blocked_ok", call=call, count=count, turn=turn),
                                  expected=say("brief.not_ok"), seen=f"<- {name} ok")
            if not GUARD_REASON.search(content):
                raise CheckFailed(say("guard.no_reason", call=call, count=count, turn=turn),
                                  expected=say("brief.reason"), seen=repr(content[:160]))
        elif not ran:
            looks_blocked = state == "blocked" or (state != "ok" and bool(GUARD_REASON.search(content)))
            raise CheckFailed(say("guard.blocked_wrongly" if looks_blocked else "guard.result_wrong",
                                  call=call, count=count, turn=turn),
                              expected=repr(hit if expect is None else expect[:160]), seen=repr(content[:160]))
    replies = [part.strip() for part in result.stdout.split(PROMPT)[1:]]
    for k, answer in enumerate(answers):
        if k >= len(replies) or not replies[k].endswith(answer):
            raise CheckFailed(say("guard.no_answer", turn=k + 1), expected=answer,
                              seen=repr(replies[k][-160:]) if k < len(replies) else say("brief.no_reply"))


def test_round_cap(ctx):
    """A model that asks for a new call in every reply: the turn stops after exactly 8 requests, with one error line that says so."""
    say, rng = ctx.say, ctx.rng("round-cap")
    model = model_name(ctx, "round-cap")
    sent = []

    def endless(request):
        sent.append(request)
        if len(sent) > MAX_ROUNDS + 4:  # a lab without a cap must still end: the check then fails on the count
            return text_reply(rng, model, words(rng))
        call = (call_id(rng), "grep", {"pattern": f"zq{rng.getrandbits(32):08x}", "path": "."})
        return calls_reply(rng, model, words(rng), [call])

    result, requests = _one_shot(ctx, "round-cap", [], model=endless)
    if len(requests) != MAX_ROUNDS:
        raise CheckFailed(say("cap.count", count=len(requests), cap=MAX_ROUNDS), seen=ctx.evidence(result))
    for number, request in enumerate(requests, 1):
        problem = valid_chain(request.messages)
        if problem:
            raise CheckFailed(say("cap.invalid", number=number, problem=problem))
    errors = error_lines(result.stderr)
    if len(errors) != 1 or str(MAX_ROUNDS) not in errors[0][1]:
        raise CheckFailed(say("cap.line", count=len(errors), cap=MAX_ROUNDS),
                          expected=say("brief.one_line", line=f"error (loop): stopped after {MAX_ROUNDS} model rounds ..."),
                          seen=" | ".join(f"error ({w}): {m}" for w, m in errors) or say("brief.no_error_line"))
