"""Retrying streams: backoff arithmetic and never replaying half an answer."""

from __future__ import annotations

import pytest

from agent_core.errors import ProviderError
from agent_core.llm.base import RetryNotice, Stop, TextDelta
from agent_core.llm.retry import backoff_delay, with_retries


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff_delay(n, 1.0) for n in range(4)] == [1.0, 2.0, 4.0, 8.0]
    assert backoff_delay(20, 1.0) == 60.0


def test_server_retry_after_wins_over_backoff() -> None:
    assert backoff_delay(3, 1.0, retry_after=0.5) == 0.5
    assert backoff_delay(0, 1.0, retry_after=10_000) == 300.0


def script(*outcomes):
    """An attempt factory: each outcome is a list of events, or an error to raise after them."""
    calls = iter(outcomes)

    def attempt():
        events, error = next(calls)

        async def run():
            for event in events:
                yield event
            if error:
                raise error

        return run()

    return attempt


async def run(attempt, retries=3):
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    out = []
    try:
        async for event in with_retries(attempt, retries=retries, backoff_base=2.0, sleep=sleep):
            out.append(event)
    except ProviderError as err:
        return out, slept, err
    return out, slept, None


async def test_notice_before_each_sleep_and_success_after() -> None:
    limited = ProviderError("rate_limit", "rate limited", retryable=True)
    out, slept, err = await run(
        script(([], limited), ([], limited), ([TextDelta("ok"), Stop("end_turn")], None))
    )
    assert err is None and slept == [2.0, 4.0]
    assert out[:2] == [RetryNotice("rate limited, retrying in 2 s", 2.0),
                       RetryNotice("rate limited, retrying in 4 s", 4.0)]  # fmt: skip
    assert out[2:] == [TextDelta("ok"), Stop("end_turn")]


async def test_a_failure_after_streaming_is_retried_as_a_restart() -> None:
    dropped = ProviderError("stream_dropped", "the connection dropped mid-answer", retryable=True)
    out, slept, err = await run(
        script(([TextDelta("half")], dropped), ([TextDelta("whole"), Stop("end_turn")], None))
    )
    assert err is None and slept == [2.0]
    assert out == [
        TextDelta("half"),
        RetryNotice("the connection dropped mid-answer, retrying in 2 s", 2.0, restart=True),
        TextDelta("whole"),
        Stop("end_turn"),
    ]


async def test_a_retry_before_anything_streamed_is_no_restart() -> None:
    limited = ProviderError("rate_limit", "rate limited", retryable=True)
    out, _, _ = await run(script(([], limited), ([TextDelta("ok")], None)))
    assert out[0] == RetryNotice("rate limited, retrying in 2 s", 2.0) and not out[0].restart


async def test_non_retryable_errors_are_raised_at_once() -> None:
    auth = ProviderError("auth", "authentication failed: check ANTHROPIC_API_KEY")
    _, slept, err = await run(script(([], auth)))
    assert err is auth and slept == []


@pytest.mark.parametrize("retries", [0, 2])
async def test_gives_up_after_the_allowed_retries(retries: int) -> None:
    boom = ProviderError("server", "the API had a server error (500)", retryable=True)
    out, slept, err = await run(script(*[([], boom)] * (retries + 1)), retries=retries)
    assert err is boom and len(slept) == retries and len(out) == retries
