"""Retries (day 6): what is retried, how long the pauses are, and when retrying stops."""

from __future__ import annotations

import random

import pytest

from .days import module_since

module_since(6, "retries")

from mca.agent import loop  # noqa: E402
from mca.agent.events import ErrorOccurred, TextDelta  # noqa: E402
from mca.agent.loop import backoff_delay, run_turn, should_retry  # noqa: E402
from mca.gateway.base import GatewayError, StreamDelta  # noqa: E402
from mca.tools.approval import Approver  # noqa: E402
from mca.tools.registry import ToolRegistry  # noqa: E402

from .scripted import Scripted, text  # noqa: E402


def busy(status: int | None = 503, **kwargs) -> GatewayError:
    return GatewayError(f"HTTP {status}: busy" if status else "cannot reach h: refused", status=status, **kwargs)


def turn(gateway, recorder, **options):
    tools = ToolRegistry([])
    history = [{"role": "system", "content": "sys"}]
    reply = run_turn(history, "go", gateway=gateway, tools=tools, approver=Approver.for_tools(tools),
                     emit=recorder, **options)
    return history, reply


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 599])
def test_transient_statuses_are_retried(status):
    assert should_retry(busy(status))


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_the_requests_own_faults_are_not(status):
    assert not should_retry(busy(status))


def test_without_a_status_only_a_transient_failure_is_retried():
    assert should_retry(GatewayError("cannot reach h: refused", transient=True))
    assert not should_retry(GatewayError("the server sent something that is not JSON"))


def test_backoff_doubles_from_half_a_second_with_jitter_below_each_step():
    random.seed(7)
    for attempt, step in enumerate([0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]):
        delays = [backoff_delay(attempt) for _ in range(200)]
        assert all(0.75 * step <= d <= step for d in delays), (attempt, min(delays), max(delays))
        assert len(set(delays)) > 1, f"attempt {attempt}: no jitter, every client would retry in step"


def test_the_cap_holds_however_many_attempts():
    assert max(backoff_delay(attempt) for attempt in range(40)) <= 8.0


def test_retry_after_wins_and_is_capped():
    assert backoff_delay(0, 2.0) == 2.0 and backoff_delay(5, 0.0) == 0.0
    assert backoff_delay(0, 30.0) == 30.0  # longer than the backoff cap: the server knows best
    assert backoff_delay(0, 10_000.0) == loop.RETRY_AFTER_CAP


def test_failed_requests_are_retried_with_growing_pauses(recorder):
    pauses: list[float] = []
    gateway = Scripted(busy(503), busy(None, transient=True), text("finally"))
    _, reply = turn(gateway, recorder, sleep=pauses.append)
    assert reply == "finally" and len(gateway.requests) == 3
    assert 0.375 <= pauses[0] <= 0.5 and 0.75 <= pauses[1] <= 1.0
    retried = recorder.of(ErrorOccurred)  # each failed attempt is an error worth logging, none ends the turn
    assert [e.retrying for e in retried] == [True, True] and all(e.where == "gateway" for e in retried)
    assert "HTTP 503: busy" in retried[0].message and "trying again in" in retried[0].message


def test_after_the_last_retry_the_failure_is_reported_and_the_turn_ends(recorder):
    pauses: list[float] = []
    gateway = Scripted(*[busy(503)] * 4)
    history, reply = turn(gateway, recorder, sleep=pauses.append, retries=3)
    *retried, error = recorder.of(ErrorOccurred)
    assert len(retried) == 3 and all(e.retrying for e in retried) and not error.retrying
    assert error.where == "gateway" and error.message == "model request failed after 4 attempt(s): HTTP 503: busy"
    assert len(pauses) == 3 and reply == "" and history[-1]["role"] == "user"


@pytest.mark.parametrize("status", [400, 401])
def test_a_non_retryable_error_is_tried_once(recorder, status):
    pauses: list[float] = []
    gateway = Scripted(busy(status), text("never"))
    turn(gateway, recorder, sleep=pauses.append)
    assert pauses == [] and len(gateway.requests) == 1 and len(recorder.of(ErrorOccurred)) == 1


def test_a_retry_after_on_the_error_sets_the_pause(recorder):
    pauses: list[float] = []
    turn(Scripted(busy(429, retry_after=4.0), text("ok")), recorder, sleep=pauses.append)
    assert pauses == [4.0]


@pytest.mark.parametrize("retry_after, said", [(120.0, "120"), (30.0, "30"), (0.4375, "0.44")])
def test_the_pause_is_said_in_plain_seconds(recorder, retry_after, said):
    turn(Scripted(busy(429, retry_after=retry_after), text("ok")), recorder, sleep=lambda s: None)
    assert recorder.of(ErrorOccurred)[0].message == f"model request failed: HTTP 429: busy; trying again in {said} s"


def test_no_retry_once_the_reply_started_to_stream(recorder):
    def half_then_reset():
        yield StreamDelta(text="The answer is")
        raise GatewayError("the stream broke: reset", transient=True)

    class Breaks(Scripted):
        def stream(self, messages, tools=None):
            self.requests.append(messages)
            return half_then_reset()

    gateway = Breaks()
    pauses: list[float] = []
    _, reply = turn(gateway, recorder, sleep=pauses.append)
    assert len(gateway.requests) == 1 and pauses == [] and reply == ""
    assert [e.text for e in recorder.of(TextDelta)] == ["The answer is"]  # shown once, not twice
    assert not recorder.of(ErrorOccurred)[-1].retrying


def test_the_loop_sleeps_exactly_the_pause_backoff_delay_chose(recorder, monkeypatch):
    monkeypatch.setenv("MCA_TIME_SCALE", "0.01")  # no variable of the environment shortens a pause
    pauses: list[float] = []
    turn(Scripted(busy(429, retry_after=4.0), text("ok")), recorder, sleep=pauses.append)
    assert pauses == [4.0]
